import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { api, APP_URL, APP_URL_2, newApiUser, newCompetitor, postCsv, publishedCompetition } from "./helpers";
import { client } from "@/scripts/support/rest-client";

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
        bound: expect.any(Number),
        uncertainty: expect.any(Number),
        decimals: expect.any(Number),
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
    expect(lines[0]).toBe("rank,team,score,kind,bound,uncertainty,submissions,budget_remaining,budget_initial,last_submission_at");
    // the score and its bound as the pages show them: to the decimals the JSON entry gives (lib/metrics/display.ts)
    expect(lines[1]).toMatch(/^1,'=cmd\|' \/C calc'!A0,[01]\.\d+,(public|holdout),[01]\.\d+,[01]\.\d+,1,\d,5,/);
    const [entry] = board.entries;
    expect([lines[1].split(",")[2], lines[1].split(",")[4]]).toEqual([entry.score.toFixed(entry.decimals), entry.bound.toFixed(entry.decimals)]);

    const team = await (await api(`/api/v1/competitions/${slug}/teams/${board.entries[0].teamId}`)).json();
    expect(team.history).toHaveLength(1);
    expect((await api(`/api/v1/competitions/${slug}/final`)).status).toBe(409);
    await api(`/api/v1/competitions/${slug}/close`, { method: "POST", headers: organizer });
    const final = await (await api(`/api/v1/competitions/${slug}/final`)).json();
    expect(final.entries).toEqual([
      {
        rank: 1,
        team: "=cmd|' /C calc'!A0",
        teamId: board.entries[0].teamId,
        score: expect.any(Number),
        bound: expect.any(Number),
        decimals: expect.any(Number),
        tiedWith: [],
        liveRank: 1,
        shakeUp: 0,
      },
    ]);
    for (const body of [board, team, final]) expect(JSON.stringify(body)).not.toMatch(/holdoutScore|publicScore|noisyThreshold|secret|streamTeamId/);
    expect((await api(`/api/v1/competitions/${slug}/teams/not-a-team`)).status).toBe(404);
  });

  it("answers a page at a time with the next page's address, and a submission on one app instance moves the ranks the other shows at once", async () => {
    const { slug } = await publishedCompetition({ threshold: 0.9 }); // a wide T: every answer is the team's public score
    const teams = await Promise.all(Array.from({ length: 5 }, (_, i) => newCompetitor(slug, `Pager ${i}`)));
    for (const [i, t] of teams.entries()) await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.55 + i / 20, seed: `pager-${i}` }), t.auth);
    const read = (base: string, query: string) => client(base)(`/api/v1/competitions/${slug}/leaderboard${query}`);
    const whole = await read(APP_URL, "");
    expect(whole).toMatchObject({ page: 1, pageSize: 100, total: 5, next: null });
    const pages = [];
    for (let next: string | null = `/api/v1/competitions/${slug}/leaderboard?pageSize=2`; next !== null;) {
      const page = await client(APP_URL_2)(next);
      pages.push(page.entries.map((e: { rank: number; team: string }) => [e.rank, e.team]));
      next = page.next;
    }
    expect(pages).toEqual(
      [whole.entries.slice(0, 2), whole.entries.slice(2, 4), whole.entries.slice(4)].map((p) => p.map((e: { rank: number; team: string }) => [e.rank, e.team])),
    );
    // The last team submits a perfect file on the second instance; the first shows it on top at once.
    const last = teams.find((t) => t.team.name === whole.entries[4].team)!;
    const perfect = demoPredictionsCsv({ skill: 1, seed: "perfect" });
    await postCsv(APP_URL_2, slug, perfect, last.auth);
    expect((await read(APP_URL, "?pageSize=1")).entries.map((e: { rank: number; team: string }) => [e.rank, e.team])).toEqual([[1, last.team.name]]);
    expect((await client(APP_URL)(`/api/v1/competitions/${slug}/teams/${last.team.id}`)).team.rank).toBe(1);
    for (const query of ["pageSize=0", "pageSize=1001"]) expect([query, (await api(`/api/v1/competitions/${slug}/leaderboard?${query}`)).status]).toEqual([query, 422]);
  });
});
