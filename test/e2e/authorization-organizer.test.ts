import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { demoSolutionCsv } from "@/prisma/demo-solution";
import { api, APP_URL, newApiUser, putCsv } from "./helpers";

// Every organizer route × {anonymous, a competitor, an organizer of another competition}: refused,
// and no answer ever carries the solution's labels, the secret or raw scores.
const future = new Date(Date.now() + 30 * 86_400_000).toISOString();

type Caller = { name: string; auth: Record<string, string>; expected: number[] };
const callers: Caller[] = [];
let draft = "";
let live = "";

async function setUp(auth: Record<string, string>, publish: boolean): Promise<string> {
  const slug = `authz-${randomBytes(5).toString("hex")}`;
  await api("/api/v1/competitions", { headers: auth, body: { slug, title: "Private draft", metric: { name: "accuracy" }, endsAt: future } });
  await putCsv(`/api/v1/competitions/${slug}/solution`, demoSolutionCsv(), auth);
  await api(`/api/v1/competitions/${slug}/mechanism`, { method: "PUT", headers: auth, body: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 5 } });
  if (publish) await api(`/api/v1/competitions/${slug}/publish`, { method: "POST", headers: auth });
  return slug;
}

beforeAll(async () => {
  const owner = await newApiUser("owner");
  draft = await setUp(owner.auth, false);
  live = await setUp(owner.auth, true);
  const competitor = await newApiUser("competitor");
  const otherOrganizer = await newApiUser("other-organizer");
  await setUp(otherOrganizer.auth, false);
  callers.push(
    { name: "anonymous", auth: {}, expected: [401] },
    { name: "competitor", auth: competitor.auth, expected: [403, 404] },
    { name: "organizer of another competition", auth: otherOrganizer.auth, expected: [403, 404] },
  );
});

const ROUTES: { method: string; path: (slug: string) => string; body?: unknown; csv?: boolean }[] = [
  { method: "PATCH", path: (s) => `/api/v1/competitions/${s}`, body: { title: "Hijacked" } },
  { method: "PUT", path: (s) => `/api/v1/competitions/${s}/solution`, csv: true },
  { method: "PUT", path: (s) => `/api/v1/competitions/${s}/correlation`, body: { model: { kind: "independent" } } },
  { method: "PUT", path: (s) => `/api/v1/competitions/${s}/mechanism`, body: { mode: "practical", sigma: 0.5, threshold: 0.5, budget: 1000 } },
  { method: "POST", path: (s) => `/api/v1/competitions/${s}/mechanism/preview`, body: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 5 } },
  { method: "GET", path: (s) => `/api/v1/competitions/${s}/publish` },
  { method: "POST", path: (s) => `/api/v1/competitions/${s}/publish` },
  { method: "DELETE", path: (s) => `/api/v1/competitions/${s}` },
  { method: "POST", path: (s) => `/api/v1/competitions/${s}/close` },
  { method: "POST", path: (s) => `/api/v1/competitions/${s}/organizers`, body: { email: "someone@example.com" } },
  { method: "GET", path: (s) => `/api/v1/competitions/${s}/organizers` },
  { method: "DELETE", path: (s) => `/api/v1/competitions/${s}/organizers/00000000-0000-0000-0000-000000000000` },
  { method: "DELETE", path: (s) => `/api/v1/competitions/${s}/organizers/invitations/00000000-0000-0000-0000-000000000000` },
  { method: "DELETE", path: (s) => `/api/v1/competitions/${s}` },
  { method: "DELETE", path: (s) => `/api/v1/competitions/${s}/attachments/00000000-0000-0000-0000-000000000000` },
  { method: "GET", path: (s) => `/api/v1/competitions/${s}/submissions/all` },
  { method: "GET", path: (s) => `/api/v1/competitions/${s}/submissions/all?format=csv` },
  { method: "POST", path: (s) => `/api/v1/competitions/${s}/teams/00000000-0000-0000-0000-000000000000/disqualify`, body: { reason: "cheating" } },
  { method: "DELETE", path: (s) => `/api/v1/competitions/${s}/teams/00000000-0000-0000-0000-000000000000/disqualify` },
  { method: "PUT", path: (s) => `/api/v1/competitions/${s}/registrations/00000000-0000-0000-0000-000000000000`, body: { status: "approved" } },
  { method: "PATCH", path: (s) => `/api/v1/competitions/${s}?preview=true`, body: { title: "Hijacked" } },
  { method: "GET", path: (s) => `/api/v1/competitions/${s}/changes` },
  { method: "GET", path: (s) => `/api/v1/competitions/${s}/bans` },
  { method: "POST", path: (s) => `/api/v1/competitions/${s}/bans`, body: { email: "someone@example.com", reason: "no reason" } },
  { method: "DELETE", path: (s) => `/api/v1/competitions/${s}/bans/00000000-0000-0000-0000-000000000000` },
  { method: "POST", path: (s) => `/api/v1/competitions/${s}/submissions?sandbox=true`, csv: true },
  { method: "GET", path: (s) => `/api/v1/competitions/${s}/sandbox` },
  { method: "PUT", path: (s) => `/api/v1/competitions/${s}/sandbox/00000000-0000-0000-0000-000000000000/baseline`, body: { name: "Mine" } },
  { method: "DELETE", path: (s) => `/api/v1/competitions/${s}/sandbox/00000000-0000-0000-0000-000000000000/baseline` },
];

describe("organizer routes refuse everyone else", () => {
  it.each(["draft", "published"])("on a %s competition", async (which) => {
    const slug = which === "draft" ? draft : live;
    for (const caller of callers) {
      for (const route of ROUTES) {
        const init = {
          method: route.method,
          headers: { ...caller.auth, "content-type": route.csv ? "text/csv" : "application/json" },
          body: route.csv ? demoSolutionCsv() : route.body === undefined ? undefined : JSON.stringify(route.body),
        };
        const response = await fetch(`${APP_URL}${route.path(slug)}`, init);
        const text = await response.text();
        const expected = which === "draft" && caller.expected.includes(404) ? [404] : caller.expected;
        expect(expected, `${caller.name} ${route.method} ${route.path(slug)} → ${response.status} ${text}`).toContain(response.status);
        expect(text).not.toMatch(/secret|"labels"|spike|holdoutValue|noisyThreshold/);
      }
      const page = await fetch(`${APP_URL}/competitions/${slug}/manage`, { headers: caller.auth, redirect: "manual" });
      expect([307, 404], `${caller.name} manage page`).toContain(page.status);
    }
  });

  it("keeps a draft out of every listing and detail for non-organizers", async () => {
    for (const caller of callers) {
      const list = await (await api("/api/v1/competitions", { headers: caller.auth })).json();
      expect(list.competitions.map((c: { slug: string }) => c.slug)).not.toContain(draft);
      expect((await api(`/api/v1/competitions/${draft}`, { headers: caller.auth })).status).toBe(404);
    }
  });

  it("did not change anything", async () => {
    const details = await (await api(`/api/v1/competitions/${live}`)).json();
    expect(details).toMatchObject({ title: "Private draft", status: "published", mechanism: { sigma: 0.01, threshold: 0.04, budget: 5 } });
  });
});
