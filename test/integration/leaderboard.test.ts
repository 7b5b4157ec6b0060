import { describe, expect, it } from "vitest";
import { setMechanism } from "@/lib/server/competitions/calibration";
import { createCompetition } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { csvCell } from "@/lib/csv/writer";
import { getFinalStandings } from "@/lib/server/boards/finals";
import { getLeaderboard, leaderboardCsv } from "@/lib/server/boards/leaderboard";
import { getTeamHistory } from "@/lib/server/boards/team-page";
import { uploadSolution } from "@/lib/server/competitions/solutions";
import { selectFinal } from "@/lib/server/scoring/team-submissions";
import { submit } from "@/lib/server/scoring/submit";
import { createTeam } from "@/lib/server/teams/teams";
import { lastMailTo, mailCount } from "@/scripts/support/caught-mail";
import { publishCompetition } from "@/lib/server/competitions/publish";
import { closeCompetition, closeDueCompetitions } from "@/lib/server/boards/finals";
import { ACKNOWLEDGE_ALL, tag, stream, newUser, publishedCompetition } from "@/test/support/factories";
import { createCompetitionSchema } from "@/lib/validation/competitions";

// 8 public rows and 8 holdout rows, labelled yes and no in turn; a prediction string gets row i
// right when its char is "1".
const IDS = Array.from({ length: 16 }, (_, i) => `r${i}`);
const LABELS = IDS.map((_, i) => (i % 2 ? "no" : "yes"));
const SOLUTION = ["id,label,split", ...IDS.map((id, i) => `${id},${LABELS[i]},${i < 8 ? "public" : "holdout"}`)].join("\n");
const predict = (pattern: string) => ["id,prediction", ...IDS.map((id, i) => `${id},${(pattern[i] === "1") === (LABELS[i] === "yes") ? "yes" : "no"}`)].join("\n");

// A huge threshold: every answer is the public score, so ranks are predictable.
function competition(metric = "accuracy") {
  return publishedCompetition({
    metric,
    days: 1,
    settings: { dailySubmissionLimit: 50 },
    solution: SOLUTION,
    mechanism: { mode: "practical", sigma: 1e-6, threshold: 0.9, budget: 3 },
  });
}

async function team(slug: string, name: string) {
  const u = await newUser();
  await createTeam(u, slug, { name, acceptRules: true });
  return u;
}

describe("live leaderboard", () => {
  it("ranks by best answered score, breaking ties by the earlier best, and keeps overall ranks when searching", async () => {
    const { slug } = await competition();
    const a = await team(slug, "Alpha");
    const b = await team(slug, "Bravo");
    const c = await team(slug, "Charlie");
    await team(slug, "Idle"); // no submission: not on the board
    // Public and holdout agree (gap below T), so each answer is the public score.
    await submit(a, slug, stream(predict("1111110011111100"))); // 6/8
    await submit(b, slug, stream(predict("1111111111111111"))); // 8/8
    await submit(c, slug, stream(predict("1111110011111100"))); // 6/8, later than Alpha
    await submit(a, slug, stream(predict("1100000011000000"))); // worse: best stays 6/8
    const board = await getLeaderboard(null, slug);
    expect(board.entries.map((e) => [e.rank, e.team, e.score, e.submissions])).toEqual([
      [1, "Bravo", 1, 1],
      [2, "Alpha", 0.75, 2],
      [3, "Charlie", 0.75, 1],
    ]);
    expect(board.metric).toEqual({ name: "accuracy", title: "Accuracy", direction: "higher" });
    const search = await getLeaderboard(null, slug, { q: "char" });
    expect(search.entries.map((e) => [e.rank, e.team])).toEqual([[3, "Charlie"]]);
    expect(search.total).toBe(1);
    const first = await getLeaderboard(null, slug, { pageSize: 2 });
    expect(first.entries.map((e) => e.rank)).toEqual([1, 2]);
    expect(first.next).toBe(`/api/v1/competitions/${slug}/leaderboard?page=2&pageSize=2`);
    const paged = await getLeaderboard(null, slug, { page: 2, pageSize: 2 });
    expect(paged.entries.map((e) => e.rank)).toEqual([3]);
    expect(paged.total).toBe(3);
    expect(paged.next).toBeNull();
    expect(board).toMatchObject({ page: 1, pageSize: 100, total: 3, next: null });
    expect((await getLeaderboard(null, slug, { q: "a", pageSize: 1 })).next).toBe(`/api/v1/competitions/${slug}/leaderboard?page=2&pageSize=1&q=a`);
    expect(JSON.stringify(board)).not.toMatch(/holdoutScore|publicScore|noisy|secret/);
  });

  it("ranks lower-is-better metrics ascending", async () => {
    const { slug } = await competition("error-rate");
    const a = await team(slug, "Worse");
    const b = await team(slug, "Better");
    await submit(a, slug, stream(predict("1100000011000000")));
    await submit(b, slug, stream(predict("1111111111111111")));
    expect((await getLeaderboard(null, slug)).entries.map((e) => [e.team, e.score])).toEqual([
      ["Better", 0],
      ["Worse", 0.75],
    ]);
  });

  it("treats a search as text, not a pattern", async () => {
    const { slug } = await competition();
    const a = await team(slug, "100% sure");
    const b = await team(slug, "100 percent");
    await submit(a, slug, stream(predict("1"))).catch(() => null);
    await submit(a, slug, stream(predict("1111111111111111")));
    await submit(b, slug, stream(predict("1111111111111111")));
    expect((await getLeaderboard(null, slug, { q: "100%" })).entries.map((e) => e.team)).toEqual(["100% sure"]);
    expect((await getLeaderboard(null, slug, { q: "_" })).entries).toEqual([]);
  });

  it("exports CSV with formula-looking names defused", async () => {
    const { slug } = await competition();
    const evil = await team(slug, '=HYPERLINK("http://x","click")');
    await submit(evil, slug, stream(predict("1111111111111111")));
    const csv = await new Response((await leaderboardCsv(null, slug)).stream).text();
    expect(csv.split("\r\n")[0]).toBe("rank,team,score,kind,bound,uncertainty,submissions,budget_remaining,budget_initial,last_submission_at");
    // The score, its bound (in [0, 1] on so small a holdout) and its sampling error on 8 public rows (1.96 · √(¼ / 8) = 0.346482…),
    // each to the decimals the bound supports, as the pages show them (lib/metrics/display.ts).
    const [entry] = (await getLeaderboard(null, slug)).entries;
    expect(entry.uncertainty).toBeCloseTo(0.346482, 6);
    const shown = [entry.score!, entry.bound!, entry.uncertainty!].map((x) => x.toFixed(entry.decimals));
    expect(csv.split("\r\n")[1]).toMatch(new RegExp(`^1,"'=HYPERLINK\\(""http://x"",""click""\\)",${shown[0]},public,${shown[1]},${shown[2]},1,3,3,\\d{4}-`));
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("plain, with comma")).toBe('"plain, with comma"');
    expect(csvCell(-2)).toBe("-2");
    expect([csvCell("-0.563"), csvCell("-1"), csvCell("-1e3"), csvCell("-0.5 ")]).toEqual(["-0.563", "-1", "'-1e3", "'-0.5 "]);
  });

  it("a team page shows the answers over time", async () => {
    const { slug } = await competition();
    const a = await team(slug, "Historic");
    await submit(a, slug, stream(predict("1100000000000000")));
    await submit(a, slug, stream(predict("1111000000000000")));
    const id = (await db.team.findFirstOrThrow({ where: { name: "Historic", competition: { slug } } })).id;
    const history = await getTeamHistory(null, slug, id);
    expect(history.history.map((h) => [h.kind, h.score, h.budget])).toEqual([
      ["public", 0.25, 3],
      ["public", 0.5, 3],
    ]);
    expect(history.team).toMatchObject({ name: "Historic", rank: 1, budget: { remaining: 3, initial: 3 } });
    await expect(getTeamHistory(null, slug, "not-a-uuid")).rejects.toThrow("no such team");
  });
});

describe("final standings", () => {
  it("score the final submissions exactly on the holdout: a threshold far too wide lets an overfit public score lead the live board, and the close shakes it down", async () => {
    const { owner, slug } = await competition();
    // T = 0.9 is absurdly wide (the planner recommends a few sampling sd): the overfitter's gap
    // (public 1, holdout 0.125) stays under it, so its public score passes the check and leads.
    const over = await team(slug, "Overfitter");
    const honest = await team(slug, "Honest");
    const picky = await team(slug, "Picky");
    await submit(over, slug, stream(predict("1111111110000000")));
    await submit(honest, slug, stream(predict("1111110011111100")));
    const p1 = (await submit(picky, slug, stream(predict("1111111000000000")))).result.id; // public 0.875, holdout 0
    await submit(picky, slug, stream(predict("1000000011111111"))); // public 0.125, holdout 1
    await selectFinal(picky, slug, p1, { selected: true }); // picks its better-looking public score
    await expect(getFinalStandings(null, slug)).rejects.toThrow("revealed when the competition closes");
    const live = (await getLeaderboard(null, slug)).entries.map((e) => [e.team, e.score, e.kind]);
    expect(live).toEqual([
      ["Overfitter", 1, "public"],
      ["Picky", 0.875, "public"],
      ["Honest", 0.75, "public"],
    ]);
    await closeCompetition(owner, slug);
    const final = await getFinalStandings(null, slug);
    expect(final.entries.map((e) => [e.rank, e.team, e.score, e.liveRank, e.shakeUp])).toEqual([
      [1, "Honest", 0.75, 3, 2],
      [2, "Overfitter", 0.125, 1, -1],
      [3, "Picky", 0, 2, -1],
    ]);
  });
});

describe("the automatic close", () => {
  it("closes a competition whose end has come exactly once, however many instances sweep at once, and tells its members once", async () => {
    const owner = await newUser();
    const slug = `lb-${tag()}`;
    const endsAt = new Date(Date.now() + 6_000); // time to publish and submit first, even on a slow machine
    await createCompetition(owner, createCompetitionSchema.parse({ slug, title: "Ending", metric: { name: "accuracy" }, endsAt: endsAt.toISOString(), dailySubmissionLimit: 50 }));
    await uploadSolution(owner, slug, stream(SOLUTION));
    await setMechanism(owner, slug, { mode: "practical", sigma: 1e-6, threshold: 0.9, budget: 3 });
    await publishCompetition(owner, slug, ACKNOWLEDGE_ALL);
    const member = await team(slug, "Closers");
    await submit(member, slug, stream(predict("1111110011111100")));
    await new Promise((r) => setTimeout(r, endsAt.getTime() - Date.now() + 100));
    const sweeps = await Promise.all([closeDueCompetitions(), closeDueCompetitions(), closeDueCompetitions()]);
    expect(sweeps.filter((closed) => closed.includes(slug))).toHaveLength(1);
    expect((await getFinalStandings(null, slug)).entries.map((e) => [e.rank, e.team])).toEqual([[1, "Closers"]]);
    expect(await closeDueCompetitions()).not.toContain(slug);
    expect((await lastMailTo(member.email, /Final standings of Ending/)).text).toContain("Your team Closers finished 1st.");
    expect(await mailCount(member.email)).toBe(1);
  });
});
