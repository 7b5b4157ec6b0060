import { describe, expect, it } from "vitest";
import { finalInterval, tiedWith } from "@/lib/calibration/finals";
import { closeCompetition, finalStandingsCsv, getFinalStandings } from "@/lib/server/closing/finals";
import { getTeamHistory } from "@/lib/server/boards/team-page";
import { listCompetitions } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { submit } from "@/lib/server/scoring/submit";
import { listMySubmissions } from "@/lib/server/scoring/team-submissions";
import { createTeam, setDisqualified } from "@/lib/server/teams/teams";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { newUser, publishedCompetition, stream } from "@/test/support/factories";

// What a competitor meets at the close: the dates and ranks say the same everywhere, and each
// submission's private score is the team's once the competition has closed.

describe("the close", () => {
  it("gives each submission its private score only once closed; the card shows the day it closed; a team's page its final rank", async () => {
    const { owner, slug, id } = await publishedCompetition({ days: 40, settings: { dailySubmissionLimit: 100 } });
    const players = [await newUser(), await newUser(), await newUser()];
    const teams = [];
    for (const [i, player] of players.entries()) {
      teams.push(await createTeam(player, slug, { name: `Closer ${i}`, acceptRules: true }));
      for (let k = 0; k < 2; k++) await submit(player, slug, stream(demoPredictionsCsv({ skill: 0.55 + 0.1 * i + 0.03 * k, seed: `${i}-${k}` })));
    }
    const before = await listMySubmissions(players[0], slug);
    expect(before.submissions.map((s) => "privateScore" in s)).toEqual([false, false]);

    await closeCompetition(owner, slug);
    const stored = await db.submission.findMany({
      where: { competitionId: id, teamId: teams[0].id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { holdoutValue: true },
    });
    const after = await listMySubmissions(players[0], slug);
    expect(after.submissions.map((s) => s.privateScore)).toEqual(stored.map((s) => s.holdoutValue));

    // Closed 40 days before its deadline: the card says today, not the deadline.
    const card = (await listCompetitions(null)).competitions.find((c) => c.slug === slug)!;
    const { closedAt, endsAt } = await db.competition.findUniqueOrThrow({ where: { id }, select: { closedAt: true, endsAt: true } });
    expect(card.closedAt).toBe(closedAt!.toISOString());
    expect(endsAt.getTime() - closedAt!.getTime()).toBeGreaterThan(39 * 86_400_000);

    const final = await getFinalStandings(null, slug);
    // Each final score carries the bound of the competition-wide count at its teams and holdout answers (demo solution: 1,536 holdout rows, independent rows in the factory), and ties follow the intervals.
    const { holdoutAnswers, answerDecimals, maxQueries } = await db.competition.findUniqueOrThrow({
      where: { id },
      select: { holdoutAnswers: true, answerDecimals: true, maxQueries: true },
    });
    const input = { concentration: { size: 1536, kl: true }, teams: 3, maxQueries: maxQueries!, holdoutAnswers, decimals: answerDecimals!, beta: 0.05 };
    const intervals = final.entries.map((e) => ({ id: e.teamId, ...finalInterval(input, e.score) }));
    for (const [k, e] of final.entries.entries()) expect(e.bound).toBe(Math.max(intervals[k].upper - e.score, e.score - intervals[k].lower));
    expect(Object.fromEntries(final.entries.map((e) => [e.teamId, e.tiedWith]))).toEqual(Object.fromEntries(tiedWith(intervals)));
    const csv = (await finalStandingsCsv(null, slug)).split("\r\n");
    expect(csv[0]).toBe("rank,team,score,bound,tied_with,live_rank,shake_up");
    expect(csv).toHaveLength(final.entries.length + 2); // the header, a line per team, the last line break

    // Each team's page says its place in the final standings; a team disqualified after the close leaves them and the ones below move up.
    for (const entry of final.entries) expect((await getTeamHistory(null, slug, entry.teamId)).team.finalRank).toBe(entry.rank);
    const first = final.entries[0];
    await setDisqualified(owner, slug, first.teamId, { reason: "a shared account" });
    const moved = await getFinalStandings(null, slug);
    expect((await getTeamHistory(null, slug, first.teamId)).team.finalRank).toBeNull();
    for (const entry of moved.entries) expect((await getTeamHistory(null, slug, entry.teamId)).team.finalRank).toBe(entry.rank);
  });
});
