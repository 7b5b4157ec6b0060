import "server-only";
import { db } from "./db";
import { AppError } from "./errors";
import { type CompetitionRow, getVisibleCompetition, metricOf } from "./competitions";
import { listBaselines } from "./sandbox";
import type { PublicUser } from "./users";
import { Prisma } from "@/lib/generated/prisma/client";
import { answerHalfWidth } from "@/lib/mechanism/thresholdout";
import { isBetter, type Metric } from "@/lib/metrics/registry";
import { isUuid } from "@/lib/validation/ids";
import type { Leaderboard, TeamHistory } from "@/lib/responses";

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
  const baselines = (await listBaselines(competition)).map((b) => ({ ...b, uncertainty }));
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

/** A CSV cell: quoted when needed, and defused when it could start a spreadsheet formula (OWASP CSV injection). */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function leaderboardCsv(board: Leaderboard): string {
  const header = ["rank", "team", "score", "uncertainty", "submissions", "budget_remaining", "budget_initial", "last_submission_at"];
  const round = (x: number | null) => (x === null ? null : Number(x.toFixed(board.displayPrecision)));
  const lines = board.entries.map((e) =>
    [e.rank, e.team, round(e.score), round(e.uncertainty), e.submissions, e.budget.remaining, e.budget.initial, e.lastSubmissionAt].map(csvCell).join(","),
  );
  return [header.join(","), ...lines].join("\r\n") + "\r\n";
}

export type LateEntry = { rank: number; team: string; teamId: string; score: number; submissions: number; lastSubmissionAt: string };

/**
 * The late board (competitions with late submissions, after the close): each team's best exact
 * holdout score among its late submissions, ranked apart from the final standings, which it never
 * changes. Ties go to the team whose late submissions ended earlier.
 */
export async function getLateBoard(
  viewer: PublicUser | null,
  slug: string,
): Promise<{ metric: Leaderboard["metric"]; displayPrecision: number; lateSubmissions: boolean; entries: LateEntry[] }> {
  const competition = await getVisibleCompetition(viewer, slug);
  const metric = metricOf(competition);
  const groups = await db.unrankedSubmission.groupBy({
    by: ["teamId"],
    where: { competitionId: competition.id, kind: "late", team: { disqualifiedAt: null } },
    _max: { holdoutValue: true, createdAt: true },
    _min: { holdoutValue: true },
    _count: { _all: true },
  });
  const names = new Map((await db.team.findMany({ where: { id: { in: groups.map((g) => g.teamId!) } }, select: { id: true, name: true } })).map((t) => [t.id, t.name]));
  const best = (g: (typeof groups)[number]) => (metric.direction === "higher" ? g._max.holdoutValue! : g._min.holdoutValue!);
  const sorted = groups.sort((a, b) =>
    isBetter(metric, best(a), best(b)) ? -1 : isBetter(metric, best(b), best(a)) ? 1 : a._max.createdAt!.getTime() - b._max.createdAt!.getTime(),
  );
  return {
    metric: { name: metric.name, title: metric.title, direction: metric.direction },
    displayPrecision: competition.displayPrecision,
    lateSubmissions: competition.lateSubmissions,
    entries: sorted.map((g, i) => ({
      rank: i + 1,
      team: names.get(g.teamId!)!,
      teamId: g.teamId!,
      score: metric.toDisplay(best(g)),
      submissions: g._count._all,
      lastSubmissionAt: g._max.createdAt!.toISOString(),
    })),
  };
}

/** A team's public page: members, and its answers and budget over time. */
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
      disqualifiedAt: true,
      disqualifyReason: true,
      members: { select: { user: { select: { name: true } } } },
    },
  });
  if (!team) throw new AppError("not_found", "no such team in this competition");
  if (team.mergedIntoId) throw new AppError("not_found", "this team was merged into another");
  const [subs, board] = await Promise.all([
    db.submission.findMany({ where: { teamId: team.id }, orderBy: { createdAt: "asc" }, select: { createdAt: true, kind: true, answer: true, budgetAfter: true } }),
    getLeaderboard(viewer, slug, { q: team.name, pageSize: 50 }),
  ]);
  const entry = board.entries.find((e) => e.teamId === team.id);
  return {
    team: {
      id: team.id,
      name: team.name,
      members: team.members.map((m) => m.user.name),
      budget: { remaining: team.budgetRemaining, initial: team.initialBudget },
      rank: entry?.rank ?? null,
      score: entry?.score ?? null,
      disqualified: team.disqualifiedAt ? { at: team.disqualifiedAt.toISOString(), reason: team.disqualifyReason ?? "" } : null,
    },
    metric: { name: metric.name, title: metric.title, direction: metric.direction },
    displayPrecision: competition.displayPrecision,
    uncertainty: entry?.uncertainty ?? (await displayHalfWidth(competition, metric)),
    history: subs.map((s) => ({ at: s.createdAt.toISOString(), kind: s.kind, score: s.answer === null ? null : metric.toDisplay(s.answer), budget: s.budgetAfter })),
  };
}

export type FinalStanding = { rank: number; team: string; teamId: string; score: number; liveRank: number | null; shakeUp: number | null };

/** The final standings of a closed competition (docs/api.md, GET …/final); 409 before it closes. */
export async function getFinalStandings(viewer: PublicUser | null, slug: string): Promise<{ metric: Leaderboard["metric"]; displayPrecision: number; entries: FinalStanding[] }> {
  const competition = await getVisibleCompetition(viewer, slug);
  if (competition.status !== "closed") throw new AppError("conflict", "the final standings are revealed when the competition closes");
  const metric = metricOf(competition);
  // A team disqualified after the close leaves the final board; the ones below move up.
  const teams = await db.team.findMany({
    where: { competitionId: competition.id, finalRank: { not: null }, disqualifiedAt: null },
    orderBy: { finalRank: "asc" },
    select: { id: true, name: true, finalValue: true, finalRank: true, liveRank: true },
  });
  return {
    metric: { name: metric.name, title: metric.title, direction: metric.direction },
    displayPrecision: competition.displayPrecision,
    entries: teams.map((t, i) => ({
      rank: i + 1,
      team: t.name,
      teamId: t.id,
      score: metric.toDisplay(t.finalValue!),
      liveRank: t.liveRank,
      shakeUp: t.liveRank === null ? null : t.liveRank - (i + 1),
    })),
  };
}
