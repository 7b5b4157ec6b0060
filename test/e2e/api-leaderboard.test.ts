import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { api, APP_URL, newApiUser, postCsv, publishedCompetition } from "./helpers";

describe("leaderboard API (docs/api.md)", () => {
  it("serves JSON and CSV with the contract's fields and nothing secret", async () => {
    const { slug, organizer } = await publishedCompetition();
    const { auth } = await newApiUser("board");
    await api(`/api/v1/competitions/${slug}/teams`, { headers: auth, body: { name: "=cmd|' /C calc'!A0", acceptRules: true } });
    await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "b" }), auth);

    const board = await (await api(`/api/v1/competitions/${slug}/leaderboard`)).json();
    expect(board.metric).toMatchObject({ name: "accuracy", direction: "higher" });
    expect(board.entries).toEqual([
      {
        rank: 1,
        team: "=cmd|' /C calc'!A0",
        teamId: expect.any(String),
        score: expect.any(Number),
        kind: expect.stringMatching(/^(public|holdout)$/),
        uncertainty: expect.any(Number),
        submissions: 1,
        budget: { remaining: expect.any(Number), initial: 5 },
        lastSubmissionAt: expect.any(String),
      },
    ]);
    // A holdout answer carries ± 4σ ln 20 (the noise, on a fine grid); a public score ± 1.96 √(¼ / n_pub,eff), at
    // more than 1.96 √(¼ / 2880) (docs/mechanism.md §2.6).
    const details = await (await api(`/api/v1/competitions/${slug}`)).json();
    if (board.entries[0].kind === "holdout") expect(board.entries[0].uncertainty).toBeCloseTo(4 * details.mechanism.sigma * Math.log(20), 4);
    else expect(board.entries[0].uncertainty).toBeGreaterThan(1.96 * Math.sqrt(0.25 / 2880));
    // Each guarantee in its own words: per team, and for everyone (none without a cap).
    expect(details.guarantee).toMatchObject({ team: { maxQueries: expect.any(Number) }, competition: { cap: null, holds: false }, publicBound: expect.any(Number) });
    expect(details.holdout).toEqual({ answersReleased: expect.any(Number), cap: null });
    const csv = await api(`/api/v1/competitions/${slug}/leaderboard?format=csv`);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("rank,team,score,kind,uncertainty,submissions,budget_remaining,budget_initial,last_submission_at");
    expect(lines[1]).toMatch(/^1,'=cmd\|' \/C calc'!A0,[01](\.\d+)?,(public|holdout),0\.\d+,1,\d,5,/);

    const team = await (await api(`/api/v1/competitions/${slug}/teams/${board.entries[0].teamId}`)).json();
    expect(team.history).toHaveLength(1);
    expect((await api(`/api/v1/competitions/${slug}/final`)).status).toBe(409);
    await api(`/api/v1/competitions/${slug}/close`, { method: "POST", headers: organizer });
    const final = await (await api(`/api/v1/competitions/${slug}/final`)).json();
    expect(final.entries).toEqual([{ rank: 1, team: "=cmd|' /C calc'!A0", teamId: board.entries[0].teamId, score: expect.any(Number), liveRank: 1, shakeUp: 0 }]);
    for (const body of [board, team, final]) expect(JSON.stringify(body)).not.toMatch(/holdoutScore|publicScore|noisyThreshold|secret|streamTeamId/);
    expect((await api(`/api/v1/competitions/${slug}/teams/not-a-team`)).status).toBe(404);
  });
});
