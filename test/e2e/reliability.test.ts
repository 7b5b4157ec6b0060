import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { startHarness } from "@/scripts/harness";
import { runFaults, runLoad } from "@/scripts/reliability";
import { api, APP_URL, APP_URL_2, newApiUser, publishedCompetition, signInWithCookies } from "./helpers";

describe("under load and faults (fast variants of npm run bench -- load / faults)", () => {
  it("two instances, 60 submissions from 12 teams, 12 in flight: every invariant holds", async () => {
    const r = await runLoad({ urls: [APP_URL, APP_URL_2], databaseUrl: process.env.DATABASE_URL!, teams: 12, perTeam: 5, inFlight: 12, rows: 2000 });
    expect(r.accepted).toBe(60);
    expect(r.invariants).toEqual({ submissions: 60, answersPerKey: 1, budgetMismatches: 0, indexProblems: 0, auditQueries: 60, auditMismatches: 0 });
  }, 180_000);

  it("kill -9 while scoring and a stopped database lose nothing and charge nothing twice", async () => {
    const harness = await startHarness(2, false, { embedded: true });
    try {
      const r = await runFaults({ apps: harness.apps, env: harness.env, databaseUrl: harness.databaseUrl, database: harness.database, rounds: 4, rows: 100_000 });
      expect(r.killedMidRequest + (r.outcomes["201→200"] ?? 0)).toBe(4);
      expect(r.outage!.during).toEqual([503, 503]);
      expect(r.outage!.messages[1]).toBe("the database is unavailable; nothing was changed, try again in a few seconds");
      expect(r.outage!.recoveredAfterMs).toBeGreaterThanOrEqual(0);
      expect(r.invariants).toMatchObject({ submissions: 5, answersPerKey: 1, budgetMismatches: 0, indexProblems: 0, auditMismatches: 0 });
    } finally {
      await harness.stop();
    }
  }, 240_000);
});

describe("hostile input", () => {
  const JSON_ENDPOINTS = ["/api/v1/users", "/api/v1/calibrate", "/api/v1/competitions", "/api/v1/tokens"];

  it("fuzzed JSON bodies never cause a 500", async () => {
    const { auth } = await newApiUser("fuzzer");
    const { slug, organizer } = await publishedCompetition();
    const endpoints = [
      ...JSON_ENDPOINTS.map((p) => ({ method: "POST", path: p, headers: auth })),
      { method: "POST", path: `/api/v1/competitions/${slug}/teams`, headers: auth },
      { method: "POST", path: `/api/v1/competitions/${slug}/teams/join`, headers: auth },
      { method: "POST", path: `/api/v1/competitions/${slug}/mechanism/preview`, headers: organizer },
      { method: "PUT", path: `/api/v1/competitions/${slug}/correlation`, headers: organizer },
      { method: "PATCH", path: `/api/v1/competitions/${slug}`, headers: organizer },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...endpoints),
        fc.oneof(fc.jsonValue(), fc.record({ n: fc.integer(), model: fc.jsonValue(), epsBdp: fc.double() }), fc.string()),
        async (endpoint, value) => {
          const body = typeof value === "string" ? value : JSON.stringify(value);
          const response = await fetch(`${APP_URL}${endpoint.path}`, { method: endpoint.method, headers: { ...endpoint.headers, "content-type": "application/json" }, body });
          const text = await response.text();
          expect(response.status, `${endpoint.method} ${endpoint.path} ${body.slice(0, 200)} → ${text.slice(0, 200)}`).toBeLessThan(500);
          expect(() => JSON.parse(text)).not.toThrow();
        },
      ),
      { seed: 42, numRuns: 150 },
    );
  }, 180_000);

  it("keeps odd unicode team names intact", async () => {
    const { slug } = await publishedCompetition();
    const names = ["Équipe ñandú", "チーム🙂", "فريق‏ עברית", "zero​width", 'quote "x", comma'];
    for (const name of names) {
      const { auth } = await newApiUser("unicode");
      const created = await api(`/api/v1/competitions/${slug}/teams`, { headers: auth, body: { name, acceptRules: true } });
      expect(created.status).toBe(201);
      expect((await created.json()).name).toBe(name);
    }
  });
});

describe("browser protections", () => {
  it("sends security headers on pages and API answers", async () => {
    for (const path of ["/", "/api/v1/competitions"]) {
      const response = await fetch(`${APP_URL}${path}`);
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("x-powered-by")).toBeNull();
    }
  });

  it("refuses a cookie-authenticated write from another site (CSRF), accepts it from this one", async () => {
    const { email, password } = await newApiUser("csrf");
    const { slug } = await publishedCompetition();
    const { cookie } = await signInWithCookies(email, password);
    const body = JSON.stringify({ name: "Cookie team", acceptRules: true });
    const evil = await fetch(`${APP_URL}/api/v1/competitions/${slug}/teams`, {
      method: "POST",
      headers: { cookie: cookie(), origin: "https://evil.example", "content-type": "application/json" },
      body,
    });
    expect(evil.status).toBe(403);
    expect((await evil.json()).error.message).toMatch(/^cross-site request refused/);
    const own = await fetch(`${APP_URL}/api/v1/competitions/${slug}/teams`, {
      method: "POST",
      headers: { cookie: cookie(), origin: new URL(APP_URL).origin, "content-type": "application/json" },
      body,
    });
    expect(own.status).toBe(201);
  });
});
