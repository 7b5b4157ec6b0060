import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { api, APP_URL, newApiUser, postCsv, publishedCompetition } from "./helpers";

// Every route × {anonymous, member of another team, team member, organizer of another competition,
// organizer, admin}, with the status each must get; then a scan of every answer, the pages, the
// built client assets and the server log for the competition's secrets.
type Role = "anonymous" | "otherTeamMember" | "teamMember" | "otherOrganizer" | "organizer" | "admin";
const ROLES: Role[] = ["anonymous", "otherTeamMember", "teamMember", "otherOrganizer", "organizer", "admin"];

const auth: Record<Role, Record<string, string>> = {} as never;
let slug = "";
let submissionId = "";
let teamId = "";
/** Every answer the matrix received, with who asked (a team sees its own public scores: docs/mechanism.md §2.2). */
const bodies: { role: Role; text: string }[] = [];

beforeAll(async () => {
  const live = await publishedCompetition({ budget: 3, sigma: 0.001, threshold: 0.001 });
  slug = live.slug;
  auth.organizer = live.organizer;
  auth.anonymous = {};
  const member = await newApiUser("member");
  const other = await newApiUser("other-member");
  const adminUser = await newApiUser("admin");
  auth.teamMember = member.auth;
  auth.otherTeamMember = other.auth;
  auth.admin = adminUser.auth;
  auth.otherOrganizer = (await publishedCompetition()).organizer;
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  await db.query("UPDATE users SET role = 'admin' WHERE email = $1", [adminUser.email]);
  await db.end();
  teamId = (await (await api(`/api/v1/competitions/${slug}/teams`, { headers: member.auth, body: { name: "Matrix A", acceptRules: true } })).json()).id;
  await api(`/api/v1/competitions/${slug}/teams`, { headers: other.auth, body: { name: "Matrix B", acceptRules: true } });
  // Several submissions, some charged: raw scores and thresholds now exist to leak.
  for (let i = 0; i < 3; i++) {
    const r = await (await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0, seed: `m-${i}`, overfit: true }), member.auth)).json();
    submissionId ||= r.id;
  }
  await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "o" }), other.auth);
});

type Route = { method: string; path: () => string; body?: () => unknown; csv?: boolean; expect: Record<Role, number> };
const all = (status: number): Record<Role, number> => Object.fromEntries(ROLES.map((r) => [r, status])) as Record<Role, number>;
const ZERO = "00000000-0000-0000-0000-000000000000";
const organizerOnly = (ok: number): Record<Role, number> => ({ anonymous: 401, otherTeamMember: 403, teamMember: 403, otherOrganizer: 403, organizer: ok, admin: ok });

const ROUTES: Route[] = [
  { method: "GET", path: () => "/api/v1/competitions", expect: all(200) },
  { method: "GET", path: () => `/api/v1/competitions/${slug}`, expect: all(200) },
  { method: "PATCH", path: () => `/api/v1/competitions/${slug}`, body: () => ({ maxTeamSize: 9 }), expect: organizerOnly(409) },
  { method: "PUT", path: () => `/api/v1/competitions/${slug}/solution`, csv: true, expect: organizerOnly(409) },
  { method: "PUT", path: () => `/api/v1/competitions/${slug}/correlation`, body: () => ({ model: { kind: "independent" } }), expect: organizerOnly(409) },
  { method: "PUT", path: () => `/api/v1/competitions/${slug}/mechanism`, body: () => ({ mode: "practical", sigma: 0.5, threshold: 0.5, budget: 100 }), expect: organizerOnly(409) },
  {
    method: "POST",
    path: () => `/api/v1/competitions/${slug}/mechanism/preview`,
    body: () => ({ mode: "practical", sigma: 0.01, threshold: 0.04, budget: 3 }),
    expect: organizerOnly(200),
  },
  { method: "POST", path: () => `/api/v1/competitions/${slug}/publish`, expect: organizerOnly(409) },
  { method: "POST", path: () => `/api/v1/competitions/${slug}/organizers`, body: () => ({ email: "nobody-here@example.com" }), expect: organizerOnly(202) },
  { method: "GET", path: () => `/api/v1/competitions/${slug}/organizers`, expect: organizerOnly(200) },
  { method: "DELETE", path: () => `/api/v1/competitions/${slug}/organizers/${ZERO}`, expect: organizerOnly(404) },
  { method: "DELETE", path: () => `/api/v1/competitions/${slug}/organizers/invitations/${ZERO}`, expect: organizerOnly(404) },
  { method: "DELETE", path: () => `/api/v1/competitions/${slug}`, expect: organizerOnly(409) },
  {
    method: "POST",
    path: () => `/api/v1/competitions/${slug}/teams/merge`,
    body: () => ({ inviteCode: "not-a-code" }),
    expect: { anonymous: 401, otherTeamMember: 404, teamMember: 404, otherOrganizer: 409, organizer: 409, admin: 409 },
  },
  ...["accept", "decline", "cancel"].map((action) => ({
    method: "POST",
    path: () => `/api/v1/competitions/${slug}/teams/merge-requests/${ZERO}/${action}`,
    expect: { ...all(404), anonymous: 401 },
  })),
  { method: "GET", path: () => `/api/v1/competitions/${slug}/health`, expect: organizerOnly(200) },
  { method: "GET", path: () => `/api/v1/competitions/${slug}/audit`, expect: organizerOnly(200) },
  { method: "GET", path: () => `/api/v1/competitions/${slug}/attachments`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/competitions/${slug}/leaderboard`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/competitions/${slug}/leaderboard?format=csv`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/competitions/${slug}/teams/${teamId}`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/competitions/${slug}/final`, expect: all(409) },
  {
    method: "GET",
    path: () => `/api/v1/competitions/${slug}/team`,
    expect: { anonymous: 401, otherTeamMember: 200, teamMember: 200, otherOrganizer: 404, organizer: 404, admin: 404 },
  },
  { method: "GET", path: () => `/api/v1/competitions/${slug}/submissions`, expect: { ...all(200), anonymous: 401 } },
  {
    method: "PUT",
    path: () => `/api/v1/competitions/${slug}/submissions/${submissionId}/final`,
    body: () => ({ selected: true }),
    expect: { anonymous: 401, otherTeamMember: 404, teamMember: 200, otherOrganizer: 404, organizer: 404, admin: 404 },
  },
  {
    method: "POST",
    path: () => `/api/v1/competitions/${slug}/teams`,
    body: () => ({ name: "Sneaky", acceptRules: true }),
    expect: { anonymous: 401, otherTeamMember: 409, teamMember: 409, otherOrganizer: 201, organizer: 403, admin: 403 },
  },
  {
    method: "POST",
    path: () => `/api/v1/competitions/${slug}/submissions`,
    csv: true,
    expect: { anonymous: 401, otherTeamMember: 201, teamMember: 201, otherOrganizer: 201, organizer: 403, admin: 403 },
  },
  { method: "GET", path: () => "/api/v1/me", expect: { ...all(200), anonymous: 401 } },
];

describe("authorization matrix", () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path().replace(/\/[0-9a-f-]{36}/g, "/{id}")}`, r] as const))("%s", async (_, route) => {
    for (const role of ROLES) {
      const response = await fetch(`${APP_URL}${route.path()}`, {
        method: route.method,
        headers: { ...auth[role], ...(route.csv ? { "content-type": "text/csv" } : route.body ? { "content-type": "application/json" } : {}) },
        body: route.csv ? demoPredictionsCsv({ skill: 0.5, seed: role }) : route.body ? JSON.stringify(route.body()) : undefined,
      });
      const text = await response.text();
      bodies.push({ role, text });
      expect(response.status, `${role}: ${text.slice(0, 200)}`).toBe(route.expect[role]);
    }
  });
});

describe("nothing secret leaks", () => {
  it("no answer, page, client asset or server log line holds the secret, a noisy threshold or a raw score", async () => {
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    const {
      rows: [c],
    } = await db.query("SELECT id, secret FROM competitions WHERE slug = $1", [slug]);
    const { rows: thresholds } = await db.query("SELECT noisy_threshold FROM teams WHERE competition_id = $1 AND noisy_threshold IS NOT NULL", [c.id]);
    const { rows: scores } = await db.query("SELECT s.public_value, s.holdout_value, t.name FROM submissions s JOIN teams t ON t.id = s.team_id WHERE s.competition_id = $1", [
      c.id,
    ]);
    await db.end();
    const secret = c.secret as Buffer;
    // Values that are only ever stored: exact decimal forms of raw scores and T̂ (long enough not to collide by chance).
    const needles = [
      secret.toString("hex"),
      secret.toString("base64"),
      secret.toString("base64url"),
      ...thresholds.map((t) => String(t.noisy_threshold)),
      ...scores.map((s) => String(s.holdout_value)),
    ].filter((n) => n.length >= 8);
    expect(needles.length).toBeGreaterThan(6);
    // A team's public scores are its own: no one else may see them.
    const teamOf: Partial<Record<Role, string>> = { teamMember: "Matrix A", otherTeamMember: "Matrix B", otherOrganizer: "Sneaky" };
    const publicScores = scores.map((s) => ({ team: s.name as string, needle: String(s.public_value) })).filter((p) => p.needle.length >= 8);
    expect(publicScores.length).toBeGreaterThan(3);

    for (const page of [`/competitions/${slug}`, `/competitions/${slug}/leaderboard`, `/competitions/${slug}/teams/${teamId}`, "/competitions"]) {
      for (const role of ["anonymous", "teamMember"] as Role[]) bodies.push({ role, text: await (await fetch(`${APP_URL}${page}`, { headers: auth[role] })).text() });
    }
    const haystacks: [string, string, Role | null][] = bodies.map((b, i) => [`response ${i} (${b.role})`, b.text, b.role]);
    const assets = path.resolve(".next/static");
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? walk(path.join(dir, f)) : [path.join(dir, f)]));
    for (const file of walk(assets).filter((f) => f.endsWith(".js"))) haystacks.push([file, readFileSync(file, "utf8"), null]);
    if (process.env.APP_LOG && existsSync(process.env.APP_LOG)) haystacks.push(["server log", readFileSync(process.env.APP_LOG, "utf8"), null]);
    for (const [where, text, role] of haystacks) {
      for (const needle of needles) expect(text.includes(needle), `${where} contains ${needle}`).toBe(false);
      for (const p of publicScores)
        if (role === null || teamOf[role] !== p.team) expect(text.includes(p.needle), `${where} contains ${p.team}'s public score ${p.needle}`).toBe(false);
      // The commitment's `secret` is the contract's name for a hash of it (docs/api.md), not the secret.
      const named = text.replace(/"commitment":\{"solution":"[0-9a-f]{64}","secret":"[0-9a-f]{64}","publishedAt":"[^"]+"\}/g, "");
      expect(/noisy_?threshold|holdout_?score|holdout_value|public_score|public_value|"secret"/i.test(named), `${where} names a secret field`).toBe(false);
    }
  });
});
