import "server-only";
import { scoreDecimals } from "@/lib/metrics/display";
import { scoreUncertainty } from "./leaderboard";
import { ON_BOARD, readRanked } from "./ranking";
import { getVisibleCompetition, metricOf } from "@/lib/server/competitions/competitions";
import { displayBound, getScoreBounds } from "@/lib/server/competitions/plans";
import { transcriptPlaces } from "@/lib/calibration/score-bounds";
import type { PublicUser } from "@/lib/server/accounts/users";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { isUuid } from "@/lib/validation/ids";
import { Prisma } from "@/lib/generated/prisma/client";
import type { BoardKind } from "@/lib/mechanism/board";
import type { TeamHistory } from "@/lib/responses";

/**
 * A team's public page: members, its place on the live board (and in the final standings once the
 * competition has closed), and its answers (each with its bound, docs/mechanism.md §2.8) and budget
 * over time.
 */
export async function getTeamHistory(viewer: PublicUser | null, slug: string, teamId: string): Promise<TeamHistory> {
  const competition = await getVisibleCompetition(viewer, slug);
  const metric = metricOf(competition);
  if (!isUuid(teamId)) throw new AppError("not_found", "no such team in this competition");
  const team = await db.team.findFirst({
    where: { id: teamId, competitionId: competition.id },
    select: {
      id: true,
      name: true,
      budgetRemaining: true,
      initialBudget: true,
      mergedIntoId: true,
      finalRank: true,
      disqualifiedAt: true,
      disqualifyReason: true,
      members: { select: { user: { select: { name: true } } } },
    },
  });
  if (!team) throw new AppError("not_found", "no such team in this competition");
  if (team.mergedIntoId) throw new AppError("not_found", "this team was merged into another");
  const [subs, board, bounds] = await Promise.all([
    db.submission.findMany({
      where: { teamId: team.id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { createdAt: true, kind: true, answer: true, budgetAfter: true },
    }),
    // Its place by its id in the board's order (ranking.ts), read with its row.
    readRanked<{ on_board: boolean; best_value: number | null; best_kind: BoardKind | null; best_position: number | null; best_prior: number | null }>(
      competition.id,
      metric,
      () => ({ rows: Prisma.sql`SELECT ${ON_BOARD} AS on_board, best_value, best_kind, best_position, best_prior FROM teams WHERE id = ${team.id}::uuid` }),
    ),
    getScoreBounds(competition),
  ]);
  const boundOf = (kind: string | null, value: number | null, place: { index: number; prior: number } | null) =>
    kind === null || place === null ? null : displayBound(bounds, metric, { kind, value, ...place, budget: team.initialBudget });
  const [row] = board.rows;
  const shownPlace = row.best_position === null || row.best_prior === null ? null : { index: row.best_position, prior: row.best_prior };
  const entry = row.on_board
    ? {
        rank: board.ranking.rankOf(team.id),
        score: row.best_value === null ? null : metric.toDisplay(row.best_value),
        kind: row.best_kind,
        bound: boundOf(row.best_kind, row.best_value, shownPlace),
      }
    : null;
  const places = transcriptPlaces(subs.map((s) => s.kind));
  return {
    team: {
      id: team.id,
      name: team.name,
      members: team.members.map((m) => m.user.name),
      budget: { remaining: team.budgetRemaining, initial: team.initialBudget },
      rank: entry?.rank ?? null,
      finalRank: await finalPlace(competition, team),
      score: entry?.score ?? null,
      kind: entry?.kind ?? null,
      bound: entry?.bound ?? null,
      decimals: scoreDecimals(entry?.bound ?? null, competition.displayPrecision),
      disqualified: team.disqualifiedAt ? { at: team.disqualifiedAt.toISOString(), reason: team.disqualifyReason ?? "" } : null,
    },
    metric: { name: metric.name, title: metric.title, direction: metric.direction },
    displayPrecision: competition.displayPrecision,
    uncertainty: await scoreUncertainty(competition, metric),
    history: subs.map((s, k) => {
      const bound = boundOf(s.kind, s.answer, places[k]);
      return {
        at: s.createdAt.toISOString(),
        kind: s.kind,
        score: s.answer === null ? null : metric.toDisplay(s.answer),
        bound,
        decimals: scoreDecimals(bound, competition.displayPrecision),
        budget: s.budgetAfter,
      };
    }),
  };
}

/**
 * The team's place in the final standings as they read now (closing/finals.ts getFinalStandings: a team
 * disqualified after the close leaves them, and the ones below move up); null before the close and
 * for a team without a final score or disqualified.
 */
async function finalPlace(competition: { id: string; status: string }, team: { finalRank: number | null; disqualifiedAt: Date | null }): Promise<number | null> {
  if (competition.status !== "closed" || team.finalRank === null || team.disqualifiedAt !== null) return null;
  return 1 + (await db.team.count({ where: { competitionId: competition.id, finalRank: { lt: team.finalRank }, disqualifiedAt: null } }));
}
