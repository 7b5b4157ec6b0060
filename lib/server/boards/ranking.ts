import "server-only";
import { db, type Transaction, transaction } from "@/lib/server/platform/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Metric } from "@/lib/metrics/registry";

// The live board's order, kept by each app instance per competition so that a page reads only its
// own rows (docs/performance.md, "The leaderboard"). The order is checked on every read against the competition's
// `board_version`, which the teams table's triggers bump in the same transaction as any change to a
// team's place (prisma/migrations/20261126000000_board_ranking): the scoring transaction, a merge, a
// disqualification, a reinstatement. A read whose statement finds the version the order was built at
// sees exactly the order PostgreSQL would compute in its snapshot, on any number of app instances.

/** ORDER BY for the live ranking: best answer first in the metric's direction, ties to the earlier best, then the earlier team. */
export function liveOrder(metric: Pick<Metric, "direction">): Prisma.Sql {
  return metric.direction === "higher"
    ? Prisma.sql`best_value DESC NULLS LAST, best_at ASC NULLS LAST, created_at ASC, id ASC`
    : Prisma.sql`best_value ASC NULLS LAST, best_at ASC NULLS LAST, created_at ASC, id ASC`;
}

/** The teams on the live board: still playing (not merged into another, not disqualified) and with a submission. */
export const ON_BOARD = Prisma.sql`merged_into_id IS NULL AND disqualified_at IS NULL AND submission_count > 0`;

/** Characters of a UUID's text: the order is kept as the ids end to end, one string for the garbage collector to skip. */
const ID_LENGTH = 36;

/** The board's order at one version: the team ids from rank 1 down. */
export class Ranking {
  constructor(
    readonly version: bigint,
    private readonly order: string,
  ) {}

  get size(): number {
    return this.order.length / ID_LENGTH;
  }

  /** The ids ranked `from + 1` to `to` (0-based, `to` exclusive). */
  ids(from: number, to: number): string[] {
    const ids: string[] = [];
    for (let i = from; i < Math.min(to, this.size); i++) ids.push(this.order.slice(i * ID_LENGTH, (i + 1) * ID_LENGTH));
    return ids;
  }

  /**
   * The team's rank (1-based), or null when it is not on the board. A UUID's hyphens sit at fixed
   * places, so a match in the joined ids can only start at an id's first character.
   */
  rankOf(teamId: string): number | null {
    const at = teamId.length === ID_LENGTH ? this.order.indexOf(teamId) : -1;
    return at < 0 || at % ID_LENGTH !== 0 ? null : at / ID_LENGTH + 1;
  }
}

/** At most this many ranked teams are kept over all competitions (about 100 bytes each); the least recently read go first. */
const MAX_CACHED_TEAMS = 1_000_000;
const cached = new Map<string, Ranking>();
const keyOf = (competitionId: string, metric: Pick<Metric, "direction">) => `${competitionId}:${metric.direction}`;
const building = new Map<string, Promise<Ranking>>();

function remember(key: string, ranking: Ranking): void {
  const current = cached.get(key);
  if (current && current.version > ranking.version) return;
  cached.delete(key);
  cached.set(key, ranking);
  let total = 0;
  for (const r of cached.values()) total += r.size;
  for (const [k, r] of cached) {
    if (total <= MAX_CACHED_TEAMS || k === key) break;
    cached.delete(k);
    total -= r.size;
  }
}

/** The version and the order of a competition's board, in one statement (one snapshot). */
function orderStatement(competitionId: string, metric: Pick<Metric, "direction">): Prisma.Sql {
  return Prisma.sql`SELECT (SELECT board_version FROM competitions WHERE id = ${competitionId}::uuid)::text AS version,
      (SELECT coalesce(string_agg(id::text, '' ORDER BY ${liveOrder(metric)}), '') FROM teams WHERE competition_id = ${competitionId}::uuid AND ${ON_BOARD}) AS "order"`;
}

function rankingOf(row: { version: string; order: string }): Ranking {
  return new Ranking(BigInt(row.version), row.order);
}

/** What a board read asks for given the order: rows (as json_agg gives them: timestamps read `AT TIME ZONE 'UTC'`), and optionally a count. */
export type BoardRead = { rows: Prisma.Sql; count?: Prisma.Sql };

/** A read with the competition's board version, in one statement. */
function checkedStatement(competitionId: string, read: BoardRead): Prisma.Sql {
  return Prisma.sql`SELECT (SELECT board_version FROM competitions WHERE id = ${competitionId}::uuid)::text AS version,
      (SELECT coalesce(json_agg(r), '[]') FROM (${read.rows}) r) AS rows, (${read.count ?? Prisma.sql`NULL`})::int AS count`;
}

/**
 * Rows of a competition's board read together with its order, consistently: `read(ranking)` gives
 * the statements that read them given the order (e.g. the teams of one page). One statement when this
 * instance holds the current order; otherwise the order is rebuilt (once for all the requests that
 * need it at the same time) and the rows read again, and should the order have moved once more
 * meanwhile, both are read in one snapshot.
 */
export async function readRanked<Row>(
  competitionId: string,
  metric: Pick<Metric, "direction">,
  read: (ranking: Ranking) => BoardRead,
): Promise<{ ranking: Ranking; rows: Row[]; count: number | null }> {
  const key = keyOf(competitionId, metric);
  for (let attempt = 0; attempt < 2; attempt++) {
    const ranking = cached.get(key);
    if (ranking) {
      const [answer] = await db.$queryRaw<{ version: string; rows: Row[]; count: number | null }[]>(checkedStatement(competitionId, read(ranking)));
      if (BigInt(answer.version) === ranking.version) {
        remember(key, ranking);
        return { ranking, rows: answer.rows, count: answer.count };
      }
    }
    if (attempt === 0) await rebuild(competitionId, metric);
  }
  return transaction(
    async (tx) => {
      const ranking = await snapshotRanking(tx, competitionId, metric);
      const [answer] = await tx.read<{ rows: Row[]; count: number | null }>(checkedStatement(competitionId, read(ranking)));
      return { ranking, rows: answer.rows, count: answer.count };
    },
    { snapshot: true },
  );
}

/** Rebuilds the order of a competition's board, once at a time in this instance. */
function rebuild(competitionId: string, metric: Pick<Metric, "direction">): Promise<Ranking> {
  const key = keyOf(competitionId, metric);
  let pending = building.get(key);
  if (!pending) {
    pending = db.$queryRaw<{ version: string; order: string }[]>(orderStatement(competitionId, metric)).then(([row]) => {
      const ranking = rankingOf(row);
      remember(key, ranking);
      return ranking;
    });
    building.set(key, pending);
    void pending.finally(() => building.delete(key)).catch(() => {});
  }
  return pending;
}

/**
 * Inside a snapshot transaction (platform/db.ts `transaction` with `snapshot`): the board's order in
 * that snapshot, the cached one when its version is current, else read in it.
 */
export async function snapshotRanking(tx: Transaction, competitionId: string, metric: Pick<Metric, "direction">): Promise<Ranking> {
  const key = keyOf(competitionId, metric);
  const ranking = cached.get(key);
  const [{ version }] = await tx.read<{ version: string }>(Prisma.sql`SELECT board_version::text AS version FROM competitions WHERE id = ${competitionId}::uuid`);
  if (ranking && ranking.version === BigInt(version)) return ranking;
  const [row] = await tx.read<{ version: string; order: string }>(orderStatement(competitionId, metric));
  const rebuilt = rankingOf(row);
  remember(key, rebuilt);
  return rebuilt;
}
