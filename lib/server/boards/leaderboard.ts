import "server-only";
import { db } from "@/lib/server/platform/db";
import { type CompetitionRow, getVisibleCompetition, metricOf } from "@/lib/server/competitions/competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { Prisma } from "@/lib/generated/prisma/client";
import { answerHalfWidth } from "@/lib/mechanism/thresholdout";
import type { Metric } from "@/lib/metrics/registry";
import { csvTable } from "@/lib/csv/writer";
import type { Leaderboard } from "@/lib/responses";

/**
 * The 95 % half-width of a released holdout value (thresholdout.ts answerHalfWidth) in the metric's
 * display units (every metric's toDisplay is linear); null before the mechanism is fixed.
 */
export async function displayHalfWidth(competition: CompetitionRow, metric: Metric): Promise<number | null> {
  if (competition.sigma === null) return null;
  const solution = await db.solution.findUnique({ where: { competitionId: competition.id }, select: { holdoutRows: true } });
  return solution && metric.toDisplay(answerHalfWidth({ sigma: competition.sigma, holdoutSize: solution.holdoutRows }));
}

/** ORDER BY for the live ranking: best answer first in the metric's direction, ties to the earlier best. */
export function liveOrder(metric: Metric): Prisma.Sql {
  return metric.direction === "higher"
    ? Prisma.sql`best_score DESC NULLS LAST, best_at ASC NULLS LAST, created_at ASC, id ASC`
    : Prisma.sql`best_score ASC NULLS LAST, best_at ASC NULLS LAST, created_at ASC, id ASC`;
}

/** `%` and `_` are wildcards in ILIKE: escape them so a search matches literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The live leaderboard: every team that has submitted, ranked by its shown score, the fresh
 * re-measurement of its best answer (selection by the answer, display of the re-measurement, so
 * the shown score carries no winner's curse; docs/mechanism.md §2.6). Reads only the teams table (each team's leaderboard row is kept current by the scoring
 * transaction), through an index per metric direction. `q` filters by team name; ranks stay the
 * overall ranks. `pageSize` 0 means all entries.
 */
export async function getLeaderboard(viewer: PublicUser | null, slug: string, options: { q?: string; page?: number; pageSize?: number } = {}): Promise<Leaderboard> {
  const competition = await getVisibleCompetition(viewer, slug);
  const metric = metricOf(competition);
  const q = (options.q ?? "").trim().slice(0, 100);
  const pageSize = Math.max(0, Math.min(10_000, Math.floor(options.pageSize ?? 0)));
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const limit = pageSize === 0 ? Prisma.empty : Prisma.sql`LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  const rows = await db.$queryRaw<
    {
      id: string;
      name: string;
      best_score: number | null;
      submission_count: number;
      budget_remaining: number;
      initial_budget: number;
      last_submission_at: Date | null;
      rank: bigint;
      total: bigint;
    }[]
  >`SELECT *, count(*) OVER () AS total FROM (
      SELECT id, name, best_score, submission_count, budget_remaining, initial_budget, last_submission_at,
             row_number() OVER (ORDER BY ${liveOrder(metric)}) AS rank
      FROM teams
      WHERE competition_id = ${competition.id}::uuid AND merged_into_id IS NULL AND disqualified_at IS NULL AND submission_count > 0
    ) ranked
    WHERE ${q === "" ? Prisma.sql`TRUE` : Prisma.sql`name ILIKE ${likePattern(q)}`}
    ORDER BY rank ${limit}`;
  const uncertainty = await displayHalfWidth(competition, metric);
  const baselines = (await listBaselines(competition.id, metric)).map((b) => ({ ...b, uncertainty }));
  return {
    metric: { name: metric.name, title: metric.title, direction: metric.direction },
    displayPrecision: competition.displayPrecision,
    baselines,
    total: rows.length ? Number(rows[0].total) : 0,
    page,
    pageSize,
    entries: rows.map((r) => ({
      rank: Number(r.rank),
      team: r.name,
      teamId: r.id,
      score: r.best_score === null ? null : metric.toDisplay(r.best_score),
      uncertainty: r.best_score === null ? null : uncertainty,
      submissions: r.submission_count,
      budget: { remaining: r.budget_remaining, initial: r.initial_budget },
      lastSubmissionAt: r.last_submission_at?.toISOString() ?? null,
    })),
  };
}

export function leaderboardCsv(board: Leaderboard): string {
  const header = ["rank", "team", "score", "uncertainty", "submissions", "budget_remaining", "budget_initial", "last_submission_at"];
  const round = (x: number | null) => (x === null ? null : Number(x.toFixed(board.displayPrecision)));
  return csvTable(
    header,
    board.entries.map((e) => [e.rank, e.team, round(e.score), round(e.uncertainty), e.submissions, e.budget.remaining, e.budget.initial, e.lastSubmissionAt]),
  );
}

/**
 * The organizers' baselines shown on the board (display units), in the order they were tested: each
 * one noisy holdout value drawn when it was first shown (lib/server/scoring/sandbox.ts setBaseline).
 */
async function listBaselines(competitionId: string, metric: Metric): Promise<{ name: string; score: number }[]> {
  const rows = await db.unrankedSubmission.findMany({
    where: { competitionId, kind: "sandbox", baselineName: { not: null } },
    orderBy: { createdAt: "asc" },
    select: { baselineName: true, baselineValue: true },
  });
  return rows.map((r) => ({ name: r.baselineName!, score: metric.toDisplay(r.baselineValue!) }));
}
