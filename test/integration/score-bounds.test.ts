import { describe, expect, it } from "vitest";
import { recommendSettings, honestGapSd } from "@/lib/calibration/honest";
import { boundSettingFor, scoreInterval, type ScoreBoundSetting, worstHalfWidth } from "@/lib/calibration/score-bounds";
import { answerDecimalsFor } from "@/lib/mechanism/thresholdout";
import { getLeaderboard } from "@/lib/server/boards/leaderboard";
import { getTeamHistory } from "@/lib/server/boards/team-page";
import { db } from "@/lib/server/platform/db";
import { auditCompetition } from "@/lib/server/scoring/audit";
import { submit } from "@/lib/server/scoring/submit";
import { listMySubmissions } from "@/lib/server/scoring/team-submissions";
import { acceptMerge, requestMerge } from "@/lib/server/teams/merges";
import { createTeam } from "@/lib/server/teams/teams";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { newUser, publishedCompetition, rejection, stream } from "@/test/support/factories";

// Every shown score carries the bound the mechanism proves for it (docs/mechanism.md §2.8), from its
// place in its team's transcript: the query's position i and the holdout answers f before it.

const ROWS = 100_000; // per split
const solution = () => ["id,label,split", ...Array.from({ length: 2 * ROWS }, (_, i) => `r${i},${i % 2},${i < ROWS ? "public" : "holdout"}`)].join("\n");
/** Predictions right on `rightPublic` of the public rows and `rightHoldout` of the holdout rows (each a fraction, rows taken in order). */
const predictions = (rightPublic: number, rightHoldout: number) =>
  stream(
    [
      "id,prediction",
      ...Array.from({ length: 2 * ROWS }, (_, i) => {
        const k = i < ROWS ? i : i - ROWS;
        const right = k < (i < ROWS ? rightPublic : rightHoldout) * ROWS;
        return `r${i},${right ? i % 2 : 1 - (i % 2)}`;
      }),
    ].join("\n"),
  );

describe("per-score bounds at 10⁵ holdout rows, B₀ = 20, m = 300 and the recommended settings", () => {
  it("an uncharged team's public score is within ±0.03; after a holdout check its later scores widen; the board, the list and the team page agree", async () => {
    const recommended = recommendSettings({ gapSd: honestGapSd(ROWS, ROWS), queries: 300 });
    const { owner, slug, competition } = await publishedCompetition({
      solution: solution(),
      settings: { dailySubmissionLimit: 1000 },
      mechanism: { mode: "practical", sigma: recommended.sigma, threshold: recommended.threshold, budget: 20, maxQueries: 300 },
    });
    const player = await newUser();
    const team = await createTeam(player, slug, { name: "Bounded", acceptRules: true });
    const bounds: ScoreBoundSetting = boundSettingFor(
      {
        concentration: { size: ROWS, kl: true },
        maxQueries: 300,
        decimals: answerDecimalsFor(recommended.sigma),
        capped: false,
        sigma: recommended.sigma,
        threshold: recommended.threshold,
        sensitivity: 1 / ROWS,
        beta: 0.05,
      },
      20,
    );
    const halfWidth = (value: number, place: { index: number; prior: number }, kind: "public" | "holdout" = "public") => {
      const { lower, upper } = scoreInterval(bounds, { kind, value, ...place, budget: 20 });
      return Math.max(upper - value, value - lower);
    };

    // Right on 80 % of both splits: a public answer, never checked.
    const honest = await submit(player, slug, predictions(0.8, 0.8));
    expect(honest.result.answer.kind).toBe("public");
    // The released public score is Q(D) on the grid of docs/mechanism.md §2.3.
    const shown = honest.result.answer.score!;
    expect(shown).toBeCloseTo(0.8, 6);
    expect(honest.result.answer.bound).toBe(halfWidth(shown, { index: 1, prior: 0 }));
    expect(honest.result.answer.bound!).toBeLessThanOrEqual(0.03);
    // Never below what the worst transcript of its place needs in Hoeffding's form, less the Chernoff–KL gain (≤ 10 % at 0.8).
    expect(honest.result.answer.bound!).toBeGreaterThan(0.9 * worstHalfWidth(bounds, { kind: "public", index: 1, prior: 0, budget: 20 }));

    // Right on the public rows, wrong on half the holdout: the gap crosses any threshold, a holdout answer.
    const overfit = await submit(player, slug, predictions(1, 0.5));
    expect(overfit.result.answer.kind).toBe("holdout");
    expect(overfit.result.answer.bound).toBe(halfWidth(overfit.result.answer.score!, { index: 2, prior: 0 }, "holdout"));
    // The next public answer stands after one holdout answer: wider than an uncharged team's at the same place.
    const later = await submit(player, slug, predictions(0.8, 0.8));
    expect(later.result.answer.kind).toBe("public");
    expect(later.result.answer.bound).toBe(halfWidth(shown, { index: 3, prior: 1 }));
    expect(later.result.answer.bound!).toBeGreaterThan(halfWidth(shown, { index: 3, prior: 0 }));

    // The list, the board and the team's page show the same bounds for the same answers.
    const mine = await listMySubmissions(player, slug);
    expect(mine.submissions.map((s) => s.answer.bound)).toEqual([later, overfit, honest].map((s) => s.result.answer.bound));
    const board = await getLeaderboard(null, slug);
    expect(board.entries).toEqual([expect.objectContaining({ teamId: team.id, score: shown, kind: "public", bound: honest.result.answer.bound })]);
    const page = await getTeamHistory(null, slug, team.id);
    expect(page.team.bound).toBe(honest.result.answer.bound);
    expect(page.history.map((h) => h.bound)).toEqual([honest, overfit, later].map((s) => s.result.answer.bound));
    expect((await auditCompetition(owner, slug)).mismatches).toBe(0);
    expect(competition.status).toBe("published");
  });
});

describe("a merged team's transcript", () => {
  // The demo solution (1,440 rows); at T = 0.5 every answer is public.
  const live = (maxQueries: number) =>
    publishedCompetition({ settings: { dailySubmissionLimit: 1000, maxTeamSize: 4 }, mechanism: { mode: "practical", sigma: 0.001, threshold: 0.5, budget: 5, maxQueries } });
  const honest = (seed: string) => stream(demoPredictionsCsv({ skill: 0.7, seed }));

  it("holds both teams' queries: the merged team continues at the sum, its limit m counts them, and the audit replays it", async () => {
    const { owner, slug } = await live(6);
    const [a, b] = [await newUser(), await newUser()];
    const teamA = await createTeam(a, slug, { name: "Absorbing", acceptRules: true });
    const teamB = await createTeam(b, slug, { name: "Absorbed", acceptRules: true });
    for (let i = 0; i < 2; i++) await submit(a, slug, honest(`a${i}`));
    for (let i = 0; i < 3; i++) await submit(b, slug, honest(`b${i}`));
    const request = await requestMerge(a, slug, { inviteCode: teamB.inviteCode });
    await acceptMerge(b, slug, request.id);
    expect(await db.team.findUniqueOrThrow({ where: { id: teamA.id }, select: { queryCount: true, absorbedQueries: true } })).toEqual({ queryCount: 2, absorbedQueries: 3 });
    // The sixth query of the merged transcript is its last scored one; the seventh is past m.
    const sixth = await submit(a, slug, honest("a2"));
    expect(sixth.result.answer.kind).toBe("public");
    expect(await db.submission.findUniqueOrThrow({ where: { id: sixth.result.id }, select: { queryIndex: true, position: true } })).toEqual({ queryIndex: 3, position: 6 });
    expect((await submit(a, slug, honest("a3"))).result.answer.kind).toBe("limit");
    // Its answers' places are both teams' submissions in time order.
    const places = (await listMySubmissions(a, slug)).submissions.map((s) => s.answer.bound);
    expect(places).toHaveLength(7);
    expect(places[0]).toBeNull(); // the limit
    expect(places.slice(1).every((bound) => bound !== null)).toBe(true);
    expect((await auditCompetition(owner, slug)).mismatches).toBe(0);
  });

  it("is refused when the two teams together made more scored submissions than m", async () => {
    const { slug } = await live(4);
    const [a, b] = [await newUser(), await newUser()];
    await createTeam(a, slug, { name: "Busy", acceptRules: true });
    const teamB = await createTeam(b, slug, { name: "Busier", acceptRules: true });
    for (let i = 0; i < 2; i++) await submit(a, slug, honest(`a${i}`));
    for (let i = 0; i < 3; i++) await submit(b, slug, honest(`b${i}`));
    const refused = await rejection(requestMerge(a, slug, { inviteCode: teamB.inviteCode }));
    expect([refused.status, refused.message]).toEqual([
      409,
      "the two teams made 2 + 3 = 5 scored submissions, more than the 4 this competition's guarantee covers for one team; they cannot merge",
    ]);
  });
});
