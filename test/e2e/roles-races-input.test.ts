import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { lastMailTo, linkIn } from "@/test/fixtures/mail";
import { api, APP_URL, newApiUser, postCsv, publishedCompetition } from "./helpers";
import { raceDisqualifyAgainstMerge, raceResetAgainst } from "@/test/support/races";

// Issue 39's roles, races and input, through the real server (docs/red-team.md, "Roles, races and
// input"); `npm run bench -- hostile` counts the same races and measures the same gaps.

describe("organizing leaves a mark (issue 39, Medium 3)", () => {
  it("a co-organizer who read the raw scores can neither remove themself nor, once the creator removes them, compete", async () => {
    const { slug, organizer } = await publishedCompetition();
    const helper = await newApiUser("co-organizer");
    expect((await api(`/api/v1/competitions/${slug}/organizers`, { body: { email: helper.email }, headers: organizer })).status).toBe(202);
    const token = linkIn(await lastMailTo(helper.email, /invited to organize/), "/organizer-invitation?token=").searchParams.get("token");
    expect((await api("/api/v1/organizer-invitations/accept", { body: { token }, headers: helper.auth })).status).toBe(200);
    expect((await api(`/api/v1/competitions/${slug}/submissions/all`, { headers: helper.auth })).status).toBe(200); // every raw score
    const me = await (await api("/api/v1/me", { headers: helper.auth })).json();
    const creator = (await (await api("/api/v1/me", { headers: organizer })).json()).id;

    const self = await api(`/api/v1/competitions/${slug}/organizers/${me.id}`, { method: "DELETE", headers: helper.auth });
    expect([self.status, (await self.json()).error.message]).toEqual([403, "only the competition's creator removes co-organizers"]);
    expect((await api(`/api/v1/competitions/${slug}/organizers/${creator}`, { method: "DELETE", headers: helper.auth })).status).toBe(403);
    expect((await api(`/api/v1/competitions/${slug}/organizers/${me.id}`, { method: "DELETE", headers: organizer })).status).toBe(200);

    const team = await api(`/api/v1/competitions/${slug}/teams`, { body: { name: "Inside knowledge", acceptRules: true }, headers: helper.auth });
    expect([team.status, (await team.json()).error.message]).toEqual([403, "you organized this competition and saw its raw scores, so you cannot compete in it"]);
    expect((await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "insider" }), helper.auth)).status).toBe(403);
  });
});

describe("a password reset cannot be outraced (issue 39, Medium 4)", () => {
  // The old password is used 0–45 ms after the reset is sent: its check reads the hash before the
  // reset commits and its token or session is made after (the race the red team won 8 and 4 times in 10).
  it("no API token created with the old password outlives the reset", { timeout: 180_000 }, async () => {
    const results = [];
    for (let i = 0; i < 10; i++) results.push({ delay: 5 * i, ...(await raceResetAgainst(APP_URL, "token", 5 * i)) });
    expect(results.map((r) => r.reset)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.survived)).toEqual([]);
  });

  it("no session signed in with the old password outlives the reset", { timeout: 180_000 }, async () => {
    const results = [];
    for (let i = 0; i < 10; i++) results.push({ delay: 5 * i, ...(await raceResetAgainst(APP_URL, "session", 5 * i)) });
    expect(results.map((r) => r.reset)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.survived)).toEqual([]);
  });
});

describe("a disqualification racing a merge's acceptance (issue 39, Low)", () => {
  it("either lands on the team the members are in, or is refused: never a 200 that leaves them playing", { timeout: 180_000 }, async () => {
    const { slug, organizer } = await publishedCompetition({ daily: 100 });
    const results = [];
    for (let i = 0; i < 6; i++) results.push({ delay: 2 * i, ...(await raceDisqualifyAgainstMerge(APP_URL, slug, organizer, 2 * i)) });
    expect(results.filter((r) => r.lost)).toEqual([]);
    // Each race has one winner: the merge (the disqualification then names the team it went into) or the disqualification (the merge is refused).
    for (const r of results) expect([r.disqualify, r.accept].sort(), JSON.stringify(r)).toEqual([200, 409]);
  });
});
