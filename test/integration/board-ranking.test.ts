import pg from "pg";
import { describe, expect, it } from "vitest";
import { getLeaderboard } from "@/lib/server/boards/leaderboard";
import { liveOrder, ON_BOARD } from "@/lib/server/boards/ranking";
import { getTeamHistory } from "@/lib/server/boards/team-page";
import { metricOf } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { submit } from "@/lib/server/scoring/submit";
import { acceptMerge, requestMerge } from "@/lib/server/teams/merges";
import { createTeam, setDisqualified } from "@/lib/server/teams/teams";
import type { PublicUser } from "@/lib/server/accounts/users";
import type { Leaderboard } from "@/lib/responses";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { newUser, publishedCompetition, stream } from "@/test/support/factories";

// The live board's order is kept per app instance (lib/server/boards/ranking.ts) and checked against
// the competition's board version, which the teams table's triggers bump in every transaction that
// moves a team. These tests hold every rank the board shows to PostgreSQL's own row_number() over the
// teams as they are, after racing submissions, merges, disqualifications and writes this process
// never saw.

const PAGE = 7;

/** Every rank as PostgreSQL computes it now: team id → rank. */
async function freshRanks(competitionId: string, direction: "higher" | "lower"): Promise<Map<string, number>> {
  const rows = await db.$queryRaw<{ id: string; rank: bigint }[]>`
    SELECT id, row_number() OVER (ORDER BY ${liveOrder({ direction })}) AS rank FROM teams WHERE competition_id = ${competitionId}::uuid AND ${ON_BOARD}`;
  return new Map(rows.map((r) => [r.id, Number(r.rank)]));
}

/** The whole board through its pages of PAGE entries, following `next`. */
async function allPages(slug: string): Promise<Leaderboard["entries"]> {
  const entries: Leaderboard["entries"] = [];
  for (let page = 1; ; page++) {
    const board = await getLeaderboard(null, slug, { page, pageSize: PAGE });
    entries.push(...board.entries);
    if (board.next === null) return entries;
    expect(board.next).toBe(`/api/v1/competitions/${slug}/leaderboard?page=${page + 1}&pageSize=${PAGE}`);
  }
}

/** The board's pages and every team page agree with row_number() over the teams. */
async function expectFreshRanks(slug: string, competitionId: string, teamIds: string[]): Promise<void> {
  const fresh = await freshRanks(competitionId, "higher");
  const entries = await allPages(slug);
  expect(entries.map((e) => [e.teamId, e.rank])).toEqual([...fresh].sort((a, b) => a[1] - b[1]));
  expect((await getLeaderboard(null, slug)).total).toBe(fresh.size);
  for (const id of teamIds) {
    // A team absorbed by a merge is gone, and its page with it: that 404 and no other error is allowed.
    const page = await getTeamHistory(null, slug, id).catch(async (error: unknown) => {
      if (error instanceof AppError && error.code === "not_found" && (await db.team.findUniqueOrThrow({ where: { id } })).mergedIntoId) return null;
      throw error;
    });
    if (page) expect([id, page.team.rank]).toEqual([id, fresh.get(id) ?? null]);
  }
}

/** One page read while the board moves: its ranks follow each other from the page's first and its scores never rise (one snapshot). */
function expectConsistentPage(board: Leaderboard): void {
  board.entries.forEach((e, i) => {
    expect(e.rank).toBe((board.page - 1) * board.pageSize + i + 1);
    const above = board.entries[i - 1];
    if (above && e.score !== null) expect(above.score).not.toBeNull();
    if (above?.score != null && e.score !== null) expect(e.score).toBeLessThanOrEqual(above.score);
  });
  expect(board.total).toBeGreaterThanOrEqual(board.entries.length);
}

async function player(slug: string, name: string): Promise<{ user: PublicUser; teamId: string; inviteCode: string }> {
  const user = await newUser();
  const team = await createTeam(user, slug, { name, acceptRules: true });
  return { user, teamId: team.id, inviteCode: team.inviteCode };
}

describe("the live board's ranks", () => {
  it("match a fresh row_number() after racing submissions, merges and disqualifications, and every page read meanwhile is one snapshot", async () => {
    const { slug, id } = await publishedCompetition({ settings: { dailySubmissionLimit: 100, maxTeamSize: 10 } });
    const players = await Promise.all(Array.from({ length: 24 }, (_, i) => player(slug, `Racer ${i}`)));
    const ids = players.map((p) => p.teamId);
    // Reads race the submissions: each page must be internally consistent whatever commits meanwhile.
    let racing = true;
    const reads: Promise<number> = (async () => {
      let count = 0;
      while (racing) {
        const board = await getLeaderboard(null, slug, { page: 1 + (count % 4), pageSize: PAGE });
        expectConsistentPage(board);
        count++;
      }
      return count;
    })();
    // 96 submissions of varied skill, 4 per team, all at once: many ties broken by the time of the best.
    await Promise.all(
      players.flatMap((p, t) =>
        Array.from({ length: 4 }, (_, k) => submit(p.user, slug, stream(demoPredictionsCsv({ skill: 0.5 + ((t * 7 + k * 3) % 10) / 25, seed: `${t}-${k}` })))),
      ),
    );
    racing = false;
    expect(await reads).toBeGreaterThan(0);
    await expectFreshRanks(slug, id, ids);

    // A merge moves two teams at once; a disqualification takes one off, a reinstatement puts it back.
    const request = await requestMerge(players[0].user, slug, { inviteCode: players[1].inviteCode });
    await acceptMerge(players[1].user, slug, request.id);
    await expectFreshRanks(slug, id, ids);
    const owner = (await db.competitionOrganizer.findFirstOrThrow({ where: { competitionId: id }, select: { user: true } })).user;
    await setDisqualified(owner, slug, players[5].teamId, { reason: "two accounts" });
    await expectFreshRanks(slug, id, ids);
    await setDisqualified(owner, slug, players[5].teamId, null);
    await expectFreshRanks(slug, id, ids);
  });

  it("follow a change written by another app instance: the version, not this process, says when the order moved", async () => {
    const { slug, id } = await publishedCompetition({ settings: { dailySubmissionLimit: 100 } });
    const players = await Promise.all(Array.from({ length: 5 }, (_, i) => player(slug, `Far ${i}`)));
    for (const [t, p] of players.entries()) await submit(p.user, slug, stream(demoPredictionsCsv({ skill: 0.55 + t / 20, seed: `far-${t}` })));
    await expectFreshRanks(
      slug,
      id,
      players.map((p) => p.teamId),
    ); // this process now holds the order
    // Another instance's transaction, on a connection of its own: the last team's best moves to the top.
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      const last = (await getLeaderboard(null, slug)).entries.at(-1)!;
      await other.query("BEGIN");
      await other.query("UPDATE teams SET best_value = 0.999, best_at = now() WHERE id = $1", [last.teamId]);
      // Not committed: every read still shows the committed order.
      expect((await getLeaderboard(null, slug)).entries.at(-1)!.teamId).toBe(last.teamId);
      await other.query("COMMIT");
      const board = await getLeaderboard(null, slug);
      expect(board.entries[0]).toMatchObject({ teamId: last.teamId, rank: 1, score: metricOf({ metric: "accuracy", metricParams: {} }).toDisplay(0.999) });
      expect((await getTeamHistory(null, slug, last.teamId)).team.rank).toBe(1);
      await expectFreshRanks(
        slug,
        id,
        players.map((p) => p.teamId),
      );
    } finally {
      await other.end();
    }
  });

  it("bump the board's version only when a team's place may change", async () => {
    const { slug, id } = await publishedCompetition({ settings: { dailySubmissionLimit: 100 } });
    const version = async () => (await db.competition.findUniqueOrThrow({ where: { id }, select: { boardVersion: true } })).boardVersion;
    const p = await player(slug, "Steady");
    const before = await version();
    await db.team.update({ where: { id: p.teamId }, data: { name: "Steady renamed" } });
    expect(await version()).toBe(before); // a team with no submission is not on the board
    await submit(p.user, slug, stream(demoPredictionsCsv({ skill: 0.9, seed: "steady" })));
    const entered = await version();
    expect(entered).toBeGreaterThan(before);
    await db.team.update({ where: { id: p.teamId }, data: { budgetRemaining: { decrement: 0 }, name: "Steady again" } });
    expect(await version()).toBe(entered); // name and budget do not order the board
  });
});
