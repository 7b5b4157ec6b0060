import "server-only";
import { db } from "@/lib/server/platform/db";
import { type CompetitionRow, getVisibleCompetition, metricOf } from "@/lib/server/competitions/competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { Prisma } from "@/lib/generated/prisma/client";
import { getCorrelationSummary } from "@/lib/server/competitions/plans";
import { loadSolution, shapesOf } from "@/lib/server/competitions/solutions";
import type { BoardKind } from "@/lib/mechanism/board";
import { answerHalfWidth } from "@/lib/mechanism/thresholdout";
import type { Metric } from "@/lib/metrics/registry";
import { csvTable } from "@/lib/csv/writer";
import type { Leaderboard, ScoreUncertainty } from "@/lib/responses";

/**
 * The 95 % half-widths of a shown score in [0, 1] units (docs/mechanism.md §2.6, §4): a public
 * score's sampling error on the public rows, 1.96·√(1/(4N)) with N the public split's concentration
 * size (its rows for a mean, whose variance is at most ¼ per row; n₊n₋/n for ROC AUC, whose variance
 * is at most 1/(4 min(n₊, n₋)) ≤ 1/(4N)) counted at the holdout's ratio n_eff / n; a holdout
 * answer's noise (thresholdout.ts answerHalfWidth). Null before the mechanism is fixed.
 */
async function halfWidths(competition: CompetitionRow): Promise<Record<BoardKind, number> | null> {
  if (competition.sigma === null) return null;
  const [solution, summary] = await Promise.all([loadSolution(competition.id, { published: competition.status !== "draft" }), getCorrelationSummary(competition)]);
  if (!solution || !summary) return null;
  const shapes = shapesOf(competition, solution);
  const publicSize = shapes.public.concentration * (summary.nEff / summary.n);
  return {
    public: 1.96 * Math.sqrt(0.25 / Math.max(1, publicSize)),
    holdout: answerHalfWidth({ sigma: competition.sigma, holdoutSize: shapes.holdout.rows, sensitivity: shapes.holdout.sensitivity }),
  };
}

/**
 * The half-widths in display units at their widest (the metric's displayHalfWidth at value 0: exact
 * for a scaled mean, the largest a root metric's can be), for the pages' explanations and a
 * team's own answers; each leaderboard entry carries its own at its score.
 */
export async function scoreUncertainty(competition: CompetitionRow, metric: Metric): Promise<ScoreUncertainty | null> {
  const w = await halfWidths(competition);
  return w && { public: metric.displayHalfWidth(0, w.public), holdout: metric.displayHalfWidth(0, w.holdout) };
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
 * The live leaderboard (docs/mechanism.md §2.6, public first): every team that has submitted, ranked
 * by its shown score — its best public answer, checked against the hidden holdout, or, without one, its
 * latest holdout answer — with the kind and the 95 % half-width of each. Reads only the teams table
 * (each team's leaderboard row is kept current by the scoring transaction, lib/mechanism/board.ts),
 * through an index per metric direction. `q` filters by team name; ranks stay the overall ranks.
 * `pageSize` 0 means all entries.
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
      best_kind: BoardKind | null;
      submission_count: number;
      budget_remaining: number;
      initial_budget: number;
      last_submission_at: Date | null;
      rank: bigint;
      total: bigint;
    }[]
  >`SELECT *, count(*) OVER () AS total FROM (
      SELECT id, name, best_score, best_kind, submission_count, budget_remaining, initial_budget, last_submission_at,
             row_number() OVER (ORDER BY ${liveOrder(metric)}) AS rank
      FROM teams
      WHERE competition_id = ${competition.id}::uuid AND merged_into_id IS NULL AND disqualified_at IS NULL AND submission_count > 0
    ) ranked
    WHERE ${q === "" ? Prisma.sql`TRUE` : Prisma.sql`name ILIKE ${likePattern(q)}`}
    ORDER BY rank ${limit}`;
  const w = await halfWidths(competition);
  // Each shown score in display units with its own half-width at that score.
  const halfWidth = (value: number, kind: BoardKind) => (w === null ? null : metric.displayHalfWidth(value, w[kind]));
  const baselines = (await listBaselines(competition.id)).map((b) => ({ name: b.name, score: metric.toDisplay(b.value), kind: b.kind, uncertainty: halfWidth(b.value, b.kind) }));
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
      kind: r.best_kind,
      uncertainty: r.best_score === null || r.best_kind === null ? null : halfWidth(r.best_score, r.best_kind),
      submissions: r.submission_count,
      budget: { remaining: r.budget_remaining, initial: r.initial_budget },
      lastSubmissionAt: r.last_submission_at?.toISOString() ?? null,
    })),
  };
}

export function leaderboardCsv(board: Leaderboard): string {
  const header = ["rank", "team", "score", "kind", "uncertainty", "submissions", "budget_remaining", "budget_initial", "last_submission_at"];
  const round = (x: number | null) => (x === null ? null : Number(x.toFixed(board.displayPrecision)));
  return csvTable(
    header,
    board.entries.map((e) => [e.rank, e.team, round(e.score), e.kind, round(e.uncertainty), e.submissions, e.budget.remaining, e.budget.initial, e.lastSubmissionAt]),
  );
}

/**
 * The organizers' baselines shown on the board ([0, 1] units), in the order they were tested: each
 * its public score (lib/server/scoring/sandbox.ts setBaseline), or, shown before baselines showed
 * their public score, the noisy holdout value it released then.
 */
async function listBaselines(competitionId: string): Promise<{ name: string; value: number; kind: BoardKind }[]> {
  const rows = await db.unrankedSubmission.findMany({
    where: { competitionId, kind: "sandbox", baselineName: { not: null } },
    orderBy: { createdAt: "asc" },
    select: { baselineName: true, baselineValue: true, publicValue: true },
  });
  return rows.map((r) => ({ name: r.baselineName!, value: r.baselineValue!, kind: r.baselineValue === r.publicValue ? "public" : "holdout" }));
}
