import "server-only";
import { scoreDecimals } from "@/lib/metrics/display";
import { db, transaction } from "@/lib/server/platform/db";
import { env } from "@/lib/server/platform/env";
import { AppError } from "@/lib/server/platform/errors";
import { log } from "@/lib/server/platform/log";
import { type CompetitionRow, getVisibleCompetition, metricOf } from "@/lib/server/competitions/competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { Prisma } from "@/lib/generated/prisma/client";
import { displayBound, getCorrelationSummary, getScoreBounds } from "@/lib/server/competitions/plans";
import type { ScoreBoundSetting } from "@/lib/calibration/score-bounds";
import { loadSolution, shapesOf } from "@/lib/server/competitions/solutions";
import type { BoardKind } from "@/lib/mechanism/board";
import { answerHalfWidth } from "@/lib/mechanism/thresholdout";
import type { Metric } from "@/lib/metrics/registry";
import { csvLines } from "@/lib/csv/writer";
import type { Leaderboard, LeaderboardEntry, ScoreUncertainty } from "@/lib/responses";
import { LEADERBOARD_PAGE } from "@/lib/validation/competitions";
import { liveOrder, ON_BOARD, readRanked, snapshotRanking } from "./ranking";

/**
 * The 95 % half-widths of a shown score's sampling error in [0, 1] units (docs/mechanism.md §2.6,
 * §4; `uncertainty`, not a promise: the promise is each score's `bound`, §2.8): a public score's
 * sampling error on the public rows, 1.96·√(1/(4N)) with N the public split's concentration
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
    holdout: answerHalfWidth({ sigma: competition.sigma, sensitivity: shapes.holdout.sensitivity }),
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

/** `%` and `_` are wildcards in ILIKE: escape them so a search matches literally. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A team's row on the board as a board read returns it (json_agg: timestamps as ISO text). */
type BoardRow = {
  id: string;
  name: string;
  best_score: number | null;
  best_kind: BoardKind | null;
  best_position: number | null;
  best_prior: number | null;
  submission_count: number;
  budget_remaining: number;
  initial_budget: number;
  last_submission_at: string | null;
};

const BOARD_COLUMNS = Prisma.sql`id, name, best_score, best_kind, best_position, best_prior, submission_count, budget_remaining, initial_budget, last_submission_at AT TIME ZONE 'UTC' AS last_submission_at`;

/** The teams with these ids (a slice of the order: the board's rows, sorted by the caller). */
function teamsWithIds(ids: string[]): Prisma.Sql {
  return Prisma.sql`SELECT ${BOARD_COLUMNS} FROM teams WHERE id = ANY(${ids}::uuid[])`;
}

/** A shown score's half-width in display units at that score (null before the mechanism is fixed). */
type HalfWidth = (value: number, kind: BoardKind) => number | null;

/** The half-width function of a competition's board, from its half-widths in [0, 1] units. */
async function halfWidthOf(competition: CompetitionRow, metric: Metric): Promise<HalfWidth> {
  const w = await halfWidths(competition);
  return (value, kind) => (w === null ? null : metric.displayHalfWidth(value, w[kind]));
}

/** How a board's entries are shown: the metric, the sampling error's half-widths and what the bounds depend on. */
type Shown = { metric: Metric; halfWidth: HalfWidth; bounds: ScoreBoundSetting | null; precision: number };

/** An entry as the API shows it (display units), at its rank, with its bound (docs/mechanism.md §2.8). */
function toEntry({ metric, halfWidth, bounds, precision }: Shown, rank: number, r: BoardRow): LeaderboardEntry {
  const bound =
    r.best_kind === null || r.best_position === null || r.best_prior === null
      ? null
      : displayBound(bounds, metric, { kind: r.best_kind, value: r.best_score, index: r.best_position, prior: r.best_prior, budget: r.initial_budget });
  return {
    rank,
    team: r.name,
    teamId: r.id,
    score: r.best_score === null ? null : metric.toDisplay(r.best_score),
    kind: r.best_kind,
    bound,
    uncertainty: r.best_score === null || r.best_kind === null ? null : halfWidth(r.best_score, r.best_kind),
    decimals: scoreDecimals(bound, precision),
    submissions: r.submission_count,
    budget: { remaining: r.budget_remaining, initial: r.initial_budget },
    lastSubmissionAt: r.last_submission_at === null ? null : new Date(r.last_submission_at).toISOString(),
  };
}

/**
 * A page of the live leaderboard (docs/mechanism.md §2.6, public first): every team that has
 * submitted, ranked by its shown score — its best public answer, checked against the hidden holdout,
 * or, without one, its latest holdout answer — with the kind, the bound the mechanism proves (§2.8)
 * and the sampling error of each. The
 * order is kept by ranking.ts, so a page reads its own teams' rows and no others; `q` filters by
 * team name (reading the teams whose names match), ranks staying the overall ranks. `next` is the
 * next page's address, null on the last.
 */
export async function getLeaderboard(viewer: PublicUser | null, slug: string, options: { q?: string; page?: number; pageSize?: number } = {}): Promise<Leaderboard> {
  const competition = await getVisibleCompetition(viewer, slug);
  const metric = metricOf(competition);
  const q = (options.q ?? "").trim().slice(0, 100);
  const pageSize = options.pageSize ?? LEADERBOARD_PAGE.default;
  const page = options.page ?? 1;
  const offset = (page - 1) * pageSize;
  const search = Prisma.sql`FROM teams WHERE competition_id = ${competition.id}::uuid AND ${ON_BOARD} AND name ILIKE ${likePattern(q)}`;
  let pageIds: string[] = [];
  const [{ ranking, rows, count }, halfWidth, bounds, baselines] = await Promise.all([
    readRanked<BoardRow>(competition.id, metric, (ranking) => {
      if (q !== "")
        return {
          rows: Prisma.sql`SELECT ${BOARD_COLUMNS} ${search} ORDER BY ${liveOrder(metric)} LIMIT ${pageSize} OFFSET ${offset}`,
          count: Prisma.sql`SELECT count(*) ${search}`,
        };
      pageIds = ranking.ids(offset, offset + pageSize);
      return { rows: teamsWithIds(pageIds) };
    }),
    halfWidthOf(competition, metric),
    getScoreBounds(competition),
    listBaselines(competition.id),
  ]);
  const shown = { metric, halfWidth, bounds, precision: competition.displayPrecision };
  // A page's ranks are its places in the order; a search's, the matches' ranks in it.
  const places = new Map(pageIds.map((id, i) => [id, offset + i + 1]));
  const rankOf = (id: string) => places.get(id) ?? ranking.rankOf(id)!;
  const total = count ?? ranking.size;
  const entries = rows.map((r) => toEntry(shown, rankOf(r.id), r)).sort((a, b) => a.rank - b.rank);
  const next = new URLSearchParams({ page: String(page + 1), pageSize: String(pageSize), ...(q ? { q } : {}) });
  return {
    metric: { name: metric.name, title: metric.title, direction: metric.direction },
    displayPrecision: competition.displayPrecision,
    // A baseline is the organizers' own reference, not a query of the mechanism: nothing bounds it.
    baselines: baselines.map((b) => ({
      name: b.name,
      score: metric.toDisplay(b.value),
      kind: b.kind,
      bound: null,
      uncertainty: halfWidth(b.value, b.kind),
      decimals: competition.displayPrecision,
    })),
    total,
    page,
    pageSize,
    next: offset + pageSize < total ? `/api/v1/competitions/${competition.slug}/leaderboard?${next}` : null,
    entries,
  };
}

/** Teams read per statement of the CSV export. */
const CSV_CHUNK = 5000;
/** How long a rendered export is served again while the board's order stays the same (its counts, budgets and times may move without it). */
const EXPORT_FRESH_MS = 10_000;
/** The rendered exports this instance keeps, the latest of each competition, least recently used first out. */
const EXPORT_CACHE_BYTES = 64 * 1024 * 1024;
/** Exports rendered at once (each reads the whole board in one transaction, a pool connection). */
const RENDERS = 2;
/** Bytes sent per read of an export, and how long a reader may leave one unread before it is let go. */
const EXPORT_SLICE = 64 * 1024;
const EXPORT_IDLE_MS = 10_000;

/** A competition's export as rendered: what it depends on besides the board, and when it was read. */
type Rendered = { key: string; version: bigint; at: number; bytes: Buffer };
const rendered = new Map<string, Rendered>();
const rendering = new Map<string, Promise<Rendered>>();
let renders = 0;
const waitingToRender: (() => void)[] = [];
let exporting = 0;

/**
 * GET …/leaderboard?format=csv: every entry of the live board, as CSV, with its length. The board is
 * rendered once, the order and every row read in one snapshot, and served to every export until the
 * board's order moves (its version), at most EXPORT_FRESH_MS later; the transaction never waits for a
 * client. Each export then reads the rendered bytes as its client takes them. At most
 * QUILTBOARD_EXPORTS (16) exports are sent by an instance at once (503 with Retry-After beyond), and
 * a reader that leaves a slice unread for EXPORT_IDLE_MS is let go.
 */
export async function leaderboardCsv(viewer: PublicUser | null, slug: string): Promise<{ stream: ReadableStream<Uint8Array>; size: number }> {
  const competition = await getVisibleCompetition(viewer, slug);
  const limit = env().QUILTBOARD_EXPORTS;
  if (exporting >= limit) throw new AppError("unavailable", `the server is sending as many leaderboard exports as it can (${limit} at once); try again in a few seconds`);
  exporting++;
  let done = false;
  const finish = () => {
    if (!done) exporting--;
    done = true;
  };
  try {
    const { bytes } = await currentExport(competition);
    return { stream: sendSlices(bytes, finish), size: bytes.byteLength };
  } catch (error) {
    finish();
    throw error;
  }
}

/** The competition's export as the board is now: the rendered one while it is fresh, else rendered again (once for every export that asks meanwhile). */
async function currentExport(competition: CompetitionRow): Promise<Rendered> {
  const { displayPrecision, sigma, threshold, budget, maxQueries, answerDecimals, holdoutCap, metric, metricParams, correlation, mechanism } = competition;
  const key = JSON.stringify([displayPrecision, sigma, threshold, budget, maxQueries, answerDecimals, holdoutCap, metric, metricParams, correlation, mechanism]);
  const [{ version }] = await db.$queryRaw<{ version: bigint }[]>`SELECT board_version AS version FROM competitions WHERE id = ${competition.id}::uuid`;
  const cached = rendered.get(competition.id);
  if (cached && cached.key === key && cached.version === version && Date.now() - cached.at < EXPORT_FRESH_MS) {
    rendered.delete(competition.id); // most recently used last
    rendered.set(competition.id, cached);
    return cached;
  }
  let pending = rendering.get(competition.id);
  if (!pending) {
    pending = renderExport(competition, key);
    rendering.set(competition.id, pending);
    void pending.finally(() => rendering.delete(competition.id)).catch(() => {});
  }
  return pending;
}

/** Reads the board in one snapshot and renders it, at most RENDERS at once; keeps it, within EXPORT_CACHE_BYTES. */
async function renderExport(competition: CompetitionRow, key: string): Promise<Rendered> {
  if (renders >= RENDERS) await new Promise<void>((resolve) => waitingToRender.push(resolve));
  else renders++;
  try {
    const metric = metricOf(competition);
    const [halfWidth, bounds] = await Promise.all([halfWidthOf(competition, metric), getScoreBounds(competition)]);
    const shown = { metric, halfWidth, bounds, precision: competition.displayPrecision };
    const header = ["rank", "team", "score", "kind", "bound", "uncertainty", "submissions", "budget_remaining", "budget_initial", "last_submission_at"];
    const at = Date.now();
    const { version, parts } = await transaction(
      async (tx) => {
        const ranking = await snapshotRanking(tx, competition.id, metric);
        const parts = [Buffer.from(csvLines([header]))];
        for (let from = 0; from < ranking.size; from += CSV_CHUNK) {
          const ids = ranking.ids(from, from + CSV_CHUNK);
          const [{ rows }] = await tx.read<{ rows: BoardRow[] }>(Prisma.sql`SELECT coalesce(json_agg(r), '[]') AS rows FROM (${teamsWithIds(ids)}) r`);
          const byId = new Map(rows.map((r) => [r.id, r]));
          const lines = ids.map((id, i) => {
            const e = toEntry(shown, from + i + 1, byId.get(id)!);
            // Each number as the pages show it: to the decimals its bound supports (lib/metrics/display.ts).
            const shownAs = (x: number | null) => (x === null ? null : x.toFixed(e.decimals));
            return [e.rank, e.team, shownAs(e.score), e.kind, shownAs(e.bound), shownAs(e.uncertainty), e.submissions, e.budget.remaining, e.budget.initial, e.lastSubmissionAt];
          });
          parts.push(Buffer.from(csvLines(lines)));
        }
        return { version: ranking.version, parts };
      },
      { snapshot: true },
    );
    const made: Rendered = { key, version, at, bytes: Buffer.concat(parts) };
    keepExport(competition.id, made);
    return made;
  } catch (error) {
    log.error({ err: (error as Error).message, slug: competition.slug }, "the leaderboard export failed");
    throw error;
  } finally {
    const next = waitingToRender.shift();
    if (next) next();
    else renders--;
  }
}

function keepExport(competitionId: string, made: Rendered): void {
  rendered.delete(competitionId);
  rendered.set(competitionId, made);
  let total = 0;
  for (const r of rendered.values()) total += r.bytes.byteLength;
  for (const [id, r] of rendered) {
    if (total <= EXPORT_CACHE_BYTES || id === competitionId) break;
    rendered.delete(id);
    total -= r.bytes.byteLength;
  }
}

/**
 * `bytes` as a stream of EXPORT_SLICE slices, each made when the reader wants it (a slow reader holds
 * a reference to the rendered export, never a copy); `finish` is called once, when the stream ends,
 * is cancelled, or its reader has left a slice unread for EXPORT_IDLE_MS (then it fails, and the
 * connection is closed).
 */
function sendSlices(bytes: Buffer, finish: () => void): ReadableStream<Uint8Array> {
  let offset = 0;
  let idle: NodeJS.Timeout | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        idle = setTimeout(() => {
          finish();
          controller.error(new Error("the reader stopped reading the leaderboard export"));
        }, EXPORT_IDLE_MS);
      },
      pull(controller) {
        idle?.refresh();
        if (offset >= bytes.byteLength) {
          clearTimeout(idle);
          finish();
          return controller.close();
        }
        controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset + offset, Math.min(EXPORT_SLICE, bytes.byteLength - offset)));
        offset += EXPORT_SLICE;
      },
      cancel() {
        clearTimeout(idle);
        finish();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The organizers' baselines shown on the board ([0, 1] units), in the order they were tested: each its public score (lib/server/scoring/sandbox.ts setBaseline). */
async function listBaselines(competitionId: string): Promise<{ name: string; value: number; kind: BoardKind }[]> {
  const rows = await db.unrankedSubmission.findMany({
    where: { competitionId, kind: "sandbox", baselineName: { not: null } },
    orderBy: { createdAt: "asc" },
    select: { baselineName: true, publicValue: true },
  });
  return rows.map((r) => ({ name: r.baselineName!, value: r.publicValue, kind: "public" }));
}
