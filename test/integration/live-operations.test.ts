import { describe, expect, it } from "vitest";
import { banUser, liftBan } from "@/lib/server/competitions/access";
import { holdoutHealth } from "@/lib/server/scoring/audit";
import { setMechanism } from "@/lib/server/competitions/calibration";
import { createCompetition, requireOrganizer } from "@/lib/server/competitions/competitions";
import { listAllSubmissions } from "@/lib/server/boards/console";
import { db } from "@/lib/server/platform/db";
import { getFinalStandings } from "@/lib/server/boards/finals";
import { getLateBoard } from "@/lib/server/boards/late-board";
import { getLeaderboard } from "@/lib/server/boards/leaderboard";
import { listSandbox, setBaseline, testInSandbox } from "@/lib/server/scoring/sandbox";
import { listChanges, previewCompetitionUpdate, updateCompetition } from "@/lib/server/competitions/settings";
import { uploadSolution } from "@/lib/server/competitions/solutions";
import { getSubmissionFile } from "@/lib/server/scoring/files";
import { listMySubmissions } from "@/lib/server/scoring/team-submissions";
import { submit } from "@/lib/server/scoring/submit";
import { createTeam, getMyTeam, leaveTeam } from "@/lib/server/teams/teams";
import { demoPredictionsCsv, demoSolutionCsv } from "@/prisma/demo-solution";
import { publishCompetition } from "@/lib/server/competitions/publish";
import { closeCompetition } from "@/lib/server/boards/finals";
import { ACKNOWLEDGE_ALL, tag, stream, newUser, rejection, PRACTICAL, publishedCompetition } from "@/test/support/factories";
import { createCompetitionSchema, updateCompetitionSchema } from "@/lib/validation/competitions";

const SOLUTION = demoSolutionCsv();
const DAY = 86_400_000;

/** 30,000 independent holdout rows: enough for a guarantee at τ = 1, β = 0.1 (the demo's 1,440 are not). */
const LARGE = ["id,label,split", ...Array.from({ length: 31_000 }, (_, i) => `r${i},${i % 3 ? "a" : "b"},${i < 1000 ? "public" : "holdout"}`)].join("\n");

/** A competition published with the given mechanism, ending in `days` days (m follows the deadline unless fixed). */
function published(mechanism: Record<string, unknown>, options: { days?: number; daily?: number; late?: boolean; solution?: string } = {}) {
  return publishedCompetition({
    mechanism,
    days: options.days,
    solution: options.solution,
    settings: { title: "Live ops", dailySubmissionLimit: options.daily ?? 5, lateSubmissions: options.late ?? false },
  });
}

describe("editing a published competition", () => {
  it("changes the wording, records who changed what, and refuses what the mechanism was planned on", async () => {
    const { owner, slug } = await published(PRACTICAL);
    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ title: "Live ops, renamed", rules: "Be kind." }));
    expect((await rejection(updateCompetition(owner, slug, updateCompetitionSchema.parse({ maxTeamSize: 9 })))).message).toMatch(
      /^maxTeamSize cannot change once the competition is published/,
    );
    expect((await rejection(updateCompetition(owner, slug, updateCompetitionSchema.parse({ metric: { name: "log-loss" } })))).status).toBe(409);
    const past = await rejection(updateCompetition(owner, slug, updateCompetitionSchema.parse({ endsAt: new Date(Date.now() - 1000).toISOString() })));
    expect([past.status, past.message]).toEqual([422, "endsAt: the new end must be in the future"]);
    const log = await listChanges(await requireOrganizer(owner, slug));
    expect(log).toHaveLength(1);
    expect(log[0].by).toBe(owner.name);
    expect(log[0].changes).toEqual([
      { field: "title", before: "Live ops", after: "Live ops, renamed" },
      { field: "rules", before: "", after: "Be kind." },
    ]);
  });

  it("replans σ, T and B₀ for a later deadline before the first submission; existing teams keep their B₀", async () => {
    const { owner, slug, competition } = await published({ mode: "guarantee", tolerance: 1, beta: 0.1 }, { days: 3, daily: 2, solution: LARGE });
    const early = await newUser();
    await createTeam(early, slug, { name: `Early ${tag()}`, acceptRules: true });
    const endsAt = new Date(competition.endsAt.getTime() + 7 * DAY).toISOString();
    const preview = await previewCompetitionUpdate(owner, slug, updateCompetitionSchema.parse({ endsAt }));
    expect(preview.plan!.replanned).toBe(true);
    expect(preview.plan!.before.maxQueries).toBe(competition.maxQueries);
    expect(preview.plan!.after.maxQueries).toBe(competition.maxQueries! + 14); // 7 more days × 2 a day
    // The count's plan (docs/mechanism.md §2.7) sets T for honest teams: more queries need a slightly higher T to keep them uncharged.
    expect(preview.plan!.after.threshold).toBeGreaterThan(preview.plan!.before.threshold);
    expect((await db.competition.findUniqueOrThrow({ where: { slug } })).maxQueries).toBe(competition.maxQueries); // the preview stored nothing
    const saved = await updateCompetition(owner, slug, updateCompetitionSchema.parse({ endsAt }));
    expect([saved.maxQueries, saved.sigma, saved.threshold, saved.budget]).toEqual([
      preview.plan!.after.maxQueries,
      preview.plan!.after.sigma,
      preview.plan!.after.threshold,
      preview.plan!.after.budget,
    ]);
    const fields = (await listChanges(await requireOrganizer(owner, slug)))[0].changes.map((c) => c.field);
    expect(fields).toEqual(expect.arrayContaining(["endsAt", "maxQueries", "sigma"]));
    expect((await getMyTeam(early, slug))!.budget.initial).toBe(competition.budget);
    const late = await newUser();
    await createTeam(late, slug, { name: `Late ${tag()}`, acceptRules: true });
    expect((await getMyTeam(late, slug))!.budget.initial).toBe(saved.budget);
  });

  it("after a submission keeps σ and T, lets m only grow, and recomputes the guarantee", async () => {
    const { owner, slug, competition } = await published(PRACTICAL, { days: 4, daily: 3 });
    const player = await newUser();
    await createTeam(player, slug, { name: `Sub ${tag()}`, acceptRules: true });
    await submit(player, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "1" })));
    const later = new Date(competition.endsAt.getTime() + 2 * DAY).toISOString();
    const preview = await previewCompetitionUpdate(owner, slug, updateCompetitionSchema.parse({ endsAt: later }));
    expect(preview.plan!.replanned).toBe(false);
    expect(preview.plan!.after).toMatchObject({ sigma: 0.01, threshold: 0.04, budget: 5, maxQueries: competition.maxQueries! + 6 });
    const saved = await updateCompetition(owner, slug, updateCompetitionSchema.parse({ endsAt: later }));
    expect([saved.sigma, saved.threshold, saved.budget, saved.maxQueries]).toEqual([0.01, 0.04, 5, competition.maxQueries! + 6]);
    const sooner = new Date(Date.now() + DAY).toISOString();
    expect((await previewCompetitionUpdate(owner, slug, updateCompetitionSchema.parse({ endsAt: sooner }))).plan).toBeNull(); // m never shrinks
    expect((await updateCompetition(owner, slug, updateCompetitionSchema.parse({ endsAt: sooner, dailySubmissionLimit: 1 }))).maxQueries).toBe(competition.maxQueries! + 6);
  });
});

describe("bans", () => {
  it("keeps a banned user from teams and submissions until the ban is lifted", async () => {
    const { owner, slug } = await published(PRACTICAL);
    const competition = await requireOrganizer(owner, slug);
    const player = await newUser();
    await createTeam(player, slug, { name: `Banned ${tag()}`, acceptRules: true });
    await banUser(competition, { email: player.email, reason: "shared accounts" });
    const refused = await rejection(submit(player, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "2" }))));
    expect([refused.status, refused.message]).toEqual([403, "the organizers banned you from this competition: shared accounts"]);
    expect(await db.submission.count({ where: { competitionId: competition.id } })).toBe(0);
    // A banned member who leaves their team (before its first submission) cannot start another.
    const other = await newUser();
    await createTeam(other, slug, { name: `X ${tag()}`, acceptRules: true });
    await banUser(competition, { email: other.email, reason: "spam" });
    await leaveTeam(other, slug);
    expect((await rejection(createTeam(other, slug, { name: `Y ${tag()}`, acceptRules: true }))).status).toBe(403);
    // Only those who take part can be banned; anyone else, an organizer or an admin included, gets the same 404.
    const admin = await newUser();
    await db.user.update({ where: { id: admin.id }, data: { role: "admin" } });
    for (const email of [owner.email, admin.email, (await newUser()).email, `nobody-${tag()}@example.com`]) {
      const refused = await rejection(banUser(competition, { email, reason: "a probe" }));
      expect([refused.status, refused.message]).toEqual([404, `no one with the address ${email} takes part in this competition (in a team, or asking to take part)`]);
    }
    await liftBan(competition, player.id);
    expect((await submit(player, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "2" })))).result.answer.kind).not.toBe("late");
  });
});

describe("late submissions", () => {
  it("are answered exactly on a late board after the close and never change the final standings", async () => {
    const { owner, slug, competition } = await published(PRACTICAL, { late: true });
    const player = await newUser();
    await createTeam(player, slug, { name: `Laggard ${tag()}`, acceptRules: true });
    await submit(player, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "3" })));
    await closeCompetition(owner, slug);
    const final = await getFinalStandings(null, slug);
    const before = await db.team.findFirstOrThrow({ where: { competitionId: competition.id }, select: { budgetRemaining: true, queryCount: true } });
    const csv = demoPredictionsCsv({ skill: 0.9, seed: "4" });
    const { result } = await submit(player, slug, stream(csv), { details: { name: "late.csv", description: "after the bell" } });
    const { holdoutValue, publicValue } = await db.unrankedSubmission.findUniqueOrThrow({ where: { id: result.id } });
    // Exact, after the close: the live competition's guarantee does not cover it, so it has no bound.
    expect(result.answer).toEqual({ kind: "late", score: holdoutValue, publicScore: publicValue, bound: null, decimals: competition.displayPrecision });
    expect(result.budget.remaining).toBe(before.budgetRemaining);
    expect(await db.team.findFirstOrThrow({ where: { competitionId: competition.id }, select: { budgetRemaining: true, queryCount: true } })).toEqual(before);
    expect(await getFinalStandings(null, slug)).toEqual(final);
    const board = await getLateBoard(null, slug);
    expect(board.entries).toEqual([expect.objectContaining({ rank: 1, score: holdoutValue, submissions: 1 })]);
    const mine = await listMySubmissions(player, slug);
    expect(mine.submissions[0]).toMatchObject({ id: result.id, answer: { kind: "late" }, description: "after the bell", filename: "late.csv" });
    const file = await getSubmissionFile(player, slug, result.id);
    expect(file.size).toBe(Buffer.byteLength(csv));
    expect(await new Response(file.body).text()).toBe(csv);
    const console = await listAllSubmissions(owner, slug);
    expect(console.submissions[0]).toMatchObject({ id: result.id, kind: "late", answer: holdoutValue, holdoutScore: holdoutValue });
  });

  it("are refused when the organizers did not allow them", async () => {
    const { owner, slug } = await published(PRACTICAL);
    const player = await newUser();
    await createTeam(player, slug, { name: `Closed ${tag()}`, acceptRules: true });
    await closeCompetition(owner, slug);
    expect((await rejection(submit(player, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "5" }))))).message).toBe("this competition has closed");
  });
});

describe("sandbox and baselines", () => {
  it("scores an organizer's file exactly, spends and ranks nothing, and shows a baseline with its public score, releasing nothing", async () => {
    const owner = await newUser();
    const slug = `sandbox-${tag()}`;
    await createCompetition(owner, createCompetitionSchema.parse({ slug, title: "Sandbox", metric: { name: "accuracy" }, endsAt: new Date(Date.now() + 10 * DAY).toISOString() }));
    await uploadSolution(owner, slug, stream(SOLUTION));
    const test = await testInSandbox(owner, slug, stream(demoPredictionsCsv({ skill: 0.8, seed: "6" })), { name: "baseline.csv", description: "majority class" });
    const stored = await db.unrankedSubmission.findUniqueOrThrow({ where: { id: test.id } });
    expect([test.publicScore, test.holdoutScore]).toEqual([stored.publicValue, stored.holdoutValue]);
    expect((await rejection(testInSandbox(owner, slug, stream("id,prediction\nnope,spike\n"), {}))).status).toBe(422);
    expect((await listSandbox(await requireOrganizer(owner, slug))).map((t) => t.id)).toEqual([test.id]);
    expect((await setBaseline(owner, slug, test.id, { name: "Majority" })).baseline).toEqual({ name: "Majority", score: stored.publicValue }); // a draft may show one too
    await setMechanism(owner, slug, PRACTICAL);
    await publishCompetition(owner, slug, ACKNOWLEDGE_ALL);
    const outsider = await newUser();
    expect((await rejection(testInSandbox(outsider, slug, stream(demoPredictionsCsv({ skill: 0.8, seed: "6" })), {}))).status).toBe(403);
    const shown = await setBaseline(owner, slug, test.id, { name: "Majority" });
    expect(shown.baseline!.name).toBe("Majority");
    const board = await getLeaderboard(null, slug);
    expect(board.entries).toEqual([]);
    expect(board.baselines).toEqual([
      { name: "Majority", score: stored.publicValue, kind: "public", bound: null, uncertainty: expect.any(Number), decimals: board.displayPrecision },
    ]);
    await setBaseline(owner, slug, test.id, null);
    expect((await getLeaderboard(null, slug)).baselines).toEqual([]);
    expect((await setBaseline(owner, slug, test.id, { name: "Majority" })).baseline!.score).toBe(stored.publicValue);
    // A public score releases nothing about the holdout: the health counts nothing for it.
    expect((await holdoutHealth(owner, slug)).total).toBe(0);
    expect(await db.submission.count({ where: { competition: { slug } } })).toBe(0);
  });
});
