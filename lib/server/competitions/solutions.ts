import "server-only";
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { db, transaction } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { fileStore, moveToStore, sweepStore } from "@/lib/server/platform/files";
import { log } from "@/lib/server/platform/log";
import { type CompetitionRow, correlationOf, requireOrganizer, metricOf } from "./competitions";
import { readCsvUpload } from "@/lib/server/platform/csv-upload";
import type { PublicUser } from "@/lib/server/accounts/users";
import { requireDraft } from "./lifecycle";
import { declaredModel, fitsSolution, splitIntegrityProblem } from "@/lib/calibration/resolve";
import { createSolutionParser, type Solution } from "@/lib/csv/solution";
import { PackedStrings } from "@/lib/csv/strings";
import { solutionCache } from "./solution-cache";
import { MathInputError } from "@/lib/mechanism/errors";
import { splitShapes, type SplitShape } from "@/lib/metrics/registry";
import { type CompetitionStatus, Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/validation/ids";

/** Largest solution file accepted: 10⁶ rows with long ids fit comfortably. */
export const MAX_SOLUTION_BYTES = 256 * 1024 * 1024;

export type SolutionSummary = { rows: number; public: number; holdout: number; sha256: string; uploadedAt: Date };

/**
 * Streams a solution CSV from the request body through the validating parser and stores it as
 * column blobs, replacing the previous one (drafts only, checked again under the competition's row
 * lock, so a file cannot land after a publish that ran meanwhile). Rejected files change nothing; the error
 * lists the problems with their lines (422), 413 past MAX_SOLUTION_BYTES. `warnings` says at once
 * when groups have rows in both splits (such a solution cannot be published under the groups or
 * Markov model). The correlation model follows what the file declares (a state column: a fitted
 * chain; a group column: groups) unless the organizer chose one it can still resolve.
 */
export async function uploadSolution(user: PublicUser, slug: string, body: ReadableStream<Uint8Array> | null): Promise<SolutionSummary & { warnings: string[] }> {
  const competition = await requireOrganizer(user, slug);
  requireDraft(competition, "the solution");
  if (!body) throw new AppError("unprocessable_entity", "send the solution CSV as the request body (Content-Type: text/csv)");
  const metric = metricOf(competition);
  // The file is kept as uploaded: the reveal after the close serves it, and its SHA-256 is what publishing commits to (docs/mechanism.md §2.10).
  const { result: solution, sha256, file } = await readCsvUpload(body, { what: "the solution file", parser: () => createSolutionParser(metric.input), keep: true });
  try {
    splitShapes(metric, solution.labels, solution.split);
  } catch (error) {
    if (error instanceof MathInputError) throw new AppError("unprocessable_entity", error.message); // the metric cannot be computed on a split
    throw error;
  }
  const holdout = solution.split.reduce((a, b) => a + b, 0);
  const uploadedAt = new Date();
  // A solution that declares groups or states is modelled by them (resolve.ts declaredModel) unless the
  // organizer chose a model this file can still resolve.
  const chosen = correlationOf(competition);
  const correlation = competition.correlation !== null && fitsSolution(chosen, solution) ? competition.correlation : declaredModel(solution);
  await storeSolution(competition.id, solution, { holdout, sha256, uploadedAt, kept: file!, correlation });
  const crossing = splitIntegrityProblem("groups", solution);
  const warnings = crossing ? [`${crossing.charAt(0).toUpperCase()}${crossing.slice(1)} Under the groups or Markov model this solution cannot be published.`] : [];
  return { rows: solution.ids.length, public: solution.ids.length - holdout, holdout, sha256, uploadedAt, warnings };
}

export async function getSolutionSummary(competitionId: string): Promise<SolutionSummary | null> {
  const s = await db.solution.findUnique({ where: { competitionId }, select: { rows: true, publicRows: true, holdoutRows: true, sha256: true, uploadedAt: true } });
  return s && { rows: s.rows, public: s.publicRows, holdout: s.holdoutRows, sha256: s.sha256, uploadedAt: s.uploadedAt };
}

// The decode in progress per competition and file hash, so that callers at the same time (a
// submission arriving while the instance warms up, scoring/warm.ts) decode it once.
const decoding = new Map<string, Promise<{ sha256: string; solution: Solution } | null>>();

/**
 * The decoded solution of a competition, or null when none was uploaded, kept in this process's
 * solution cache (solution-cache.ts). Until the competition is seen published (`published`), each
 * call checks the file's hash, so a new upload replaces it and a deleted draft's is dropped.
 */
export async function loadSolution(competitionId: string, options: { published?: boolean } = {}): Promise<Solution | null> {
  const cached = solutionCache.get(competitionId);
  if (cached?.final) return cached.solution;
  const head = await db.solution.findUnique({ where: { competitionId }, select: { sha256: true } });
  if (!head) {
    solutionCache.forget(competitionId);
    return null;
  }
  const final = options.published ?? false;
  if (cached?.sha256 === head.sha256) {
    cached.final = final;
    return cached.solution;
  }
  const key = `${competitionId}:${head.sha256}`;
  let pending = decoding.get(key);
  if (!pending) {
    pending = readSolution(competitionId);
    decoding.set(key, pending);
    void pending.finally(() => decoding.delete(key)).catch(() => {});
  }
  const decoded = await pending;
  if (!decoded) return null;
  const entry = solutionCache.get(competitionId);
  if (entry?.sha256 === decoded.sha256) {
    entry.final ||= final;
    return entry.solution;
  }
  solutionCache.keep(competitionId, decoded.sha256, decoded.solution, final);
  return decoded.solution;
}

/**
 * Δ and the concentration size of the solution's public and holdout splits under the competition's
 * metric (docs/mechanism.md §4): 1/n and n for a mean over n rows. Throws a MathInputError when the
 * metric cannot be computed on a split (ROC AUC on a split with one class).
 */
export function shapesOf(competition: Pick<CompetitionRow, "metric" | "metricParams">, solution: Solution): { public: SplitShape; holdout: SplitShape } {
  // By metric: a draft's metric can change after its upload.
  const name = JSON.stringify(["shapes", competition.metric, competition.metricParams]);
  return solutionCache.derived(solution, name, () => ({ value: splitShapes(metricOf(competition), solution.labels, solution.split), bytes: 0 }));
}

/** The bytes of a typed array, in place (a view, not a copy: a solution's columns are as large as its file). */
function bytesOf(array: Int32Array | Float64Array | Uint8Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * Writes a solution's columns as blobs, replacing the competition's previous solution, and sets the
 * competition's correlation model, in one transaction under the competition's row lock (a draft
 * only). The file as kept (compressed) is written to the file store first, under a new key
 * `solutions/<competition>/<uuid>` that the row names; the previous file's bytes are removed once the
 * new row is committed, the new ones when the transaction fails (unless the row names them after
 * all: a commit whose answer was lost). Through node-postgres, which sends each column as it is
 * (binary): Prisma turned 34 MB of columns into strings for 2 to 4 s of the event loop and ~150 MB
 * of memory, and its interactive transaction gave up after 5 s (a 500 for a large file while
 * another change held the lock).
 */
async function storeSolution(
  competitionId: string,
  s: Solution,
  file: { holdout: number; sha256: string; uploadedAt: Date; kept: { compressed: Uint8Array; size: number }; correlation: unknown },
): Promise<void> {
  const rows = s.ids.length;
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
  const key = `solutions/${competitionId}/${randomUUID()}`;
  await fileStore().put(key, Readable.from([file.kept.compressed]));
  let replaced: string | null = null;
  try {
    await transaction(async (tx) => {
      const [{ status }] = await tx.read<{ status: CompetitionStatus }>(Prisma.sql`SELECT status FROM competitions WHERE id = ${competitionId}::uuid FOR UPDATE`);
      requireDraft({ status }, "the solution");
      replaced = (await tx.read<{ key: string | null }>(Prisma.sql`SELECT file_key AS key FROM solutions WHERE competition_id = ${competitionId}::uuid`))[0]?.key ?? null;
      tx.write(Prisma.sql`
        INSERT INTO solutions (competition_id, rows, public_rows, holdout_rows, ids, labels, classes, split, order_values, group_codes, group_names, state_codes, state_names, sha256, file_key, file, file_size, uploaded_at)
        VALUES (${competitionId}::uuid, ${rows}, ${rows - file.holdout}, ${file.holdout}, ${bytesOf(s.ids.bytes)}, ${bytesOf(s.labels)}, ${json(s.classes)}::jsonb, ${bytesOf(s.split)},
          ${s.order && bytesOf(s.order)}, ${s.groups && bytesOf(s.groups.codes)}, ${s.groups && bytesOf(s.groups.names.bytes)}, ${s.states && bytesOf(s.states.codes)},
          ${json(s.states?.names ?? null)}::jsonb, ${file.sha256}, ${key}, NULL, ${file.kept.size}, ${file.uploadedAt.toISOString()}::timestamp)
        ON CONFLICT (competition_id) DO UPDATE SET rows = EXCLUDED.rows, public_rows = EXCLUDED.public_rows, holdout_rows = EXCLUDED.holdout_rows, ids = EXCLUDED.ids,
          labels = EXCLUDED.labels, classes = EXCLUDED.classes, split = EXCLUDED.split, order_values = EXCLUDED.order_values, group_codes = EXCLUDED.group_codes,
          group_names = EXCLUDED.group_names, state_codes = EXCLUDED.state_codes, state_names = EXCLUDED.state_names, sha256 = EXCLUDED.sha256, file_key = EXCLUDED.file_key,
          file = NULL, file_size = EXCLUDED.file_size, uploaded_at = EXCLUDED.uploaded_at`);
      tx.write(Prisma.sql`UPDATE competitions SET correlation = ${json(file.correlation)}::jsonb WHERE id = ${competitionId}::uuid`);
    });
  } catch (error) {
    await forgetSolutionFile(key, competitionId);
    throw error;
  }
  await forgetSolutionFile(replaced);
}

/**
 * Removes a solution's file from the store, when no row names it (`competitionId`: the row that
 * might) or when its row is gone; a failure is logged and left to sweepSolutionFiles.
 */
export async function forgetSolutionFile(key: string | null, competitionId?: string): Promise<void> {
  if (!key) return;
  try {
    if (competitionId) {
      const [row] = await db.$queryRaw<{ key: string | null }[]>`SELECT file_key AS key FROM solutions WHERE competition_id = ${competitionId}::uuid`;
      if (row?.key === key) return;
    }
    await fileStore().delete(key);
  } catch (error) {
    log.warn({ key, err: (error as Error).message }, "a solution's file no row names stays in the file store until the sweep");
  }
}

/**
 * At a start: moves the solutions' files kept in the database before the file store held them into
 * the store, under `solutions/<competition>/<sha256>` (platform/files.ts moveToStore: idempotent,
 * safe to interrupt); how many it moved.
 */
export async function moveSolutionFilesToStore(): Promise<number> {
  return moveToStore({ table: "solutions", id: "competition_id", bytes: "file", key: "file_key", keyOf: `'solutions/' || competition_id || '/' || sha256` });
}

/**
 * Removes the solutions' files that no row names, written over an hour before `now`
 * (platform/files.ts sweepStore): left by an app killed between writing one and committing its row,
 * or by a delete that could not reach the store.
 */
export async function sweepSolutionFiles(now = new Date()): Promise<number> {
  return sweepStore(
    "solutions/",
    async (keys) => {
      const ids = keys.map((key) => key.split("/")[1]).filter(isUuid);
      const rows = await db.$queryRaw<{ key: string }[]>`SELECT file_key AS key FROM solutions WHERE competition_id = ANY(${ids}::uuid[]) AND file_key IS NOT NULL`;
      return new Set(rows.map((r) => r.key));
    },
    now,
  );
}

/**
 * Decoded base64 in an ArrayBuffer of its own, as typed arrays of 4 and 8 bytes need (their offset
 * aligned): a large blob decodes into one already; a small one is copied out of Node's shared pool.
 */
function decoded(base64: string): ArrayBuffer {
  const bytes = Buffer.from(base64, "base64");
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return (own ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) as ArrayBuffer;
}

/**
 * Reads a competition's solution and decodes it into typed arrays (each column a fresh, aligned
 * copy). The blobs travel as base64 through node-postgres, decoded natively: Prisma took about twice
 * the time and memory, and a bytea's default text form is twice the blob's size.
 */
async function readSolution(competitionId: string): Promise<{ sha256: string; solution: Solution } | null> {
  const [row] = await transaction(
    (tx) =>
      tx.read<
        Record<"ids" | "labels" | "split", string> &
          Record<"orderValues" | "groupCodes" | "groupNames" | "stateCodes", string | null> & { classes: string[] | null; stateNames: string[] | null; sha256: string }
      >(
        Prisma.sql`SELECT encode(ids, 'base64') AS ids, encode(labels, 'base64') AS labels, encode(split, 'base64') AS split, classes, state_names AS "stateNames", sha256,
          encode(order_values, 'base64') AS "orderValues", encode(group_codes, 'base64') AS "groupCodes", encode(group_names, 'base64') AS "groupNames", encode(state_codes, 'base64') AS "stateCodes"
          FROM solutions WHERE competition_id = ${competitionId}::uuid`,
      ),
    { snapshot: true },
  );
  if (!row) return null;
  const classes = row.classes;
  return {
    sha256: row.sha256,
    solution: {
      ids: new PackedStrings(new Uint8Array(decoded(row.ids))),
      labels: classes ? new Int32Array(decoded(row.labels)) : new Float64Array(decoded(row.labels)),
      classes,
      split: new Uint8Array(decoded(row.split)),
      order: row.orderValues === null ? null : new Float64Array(decoded(row.orderValues)),
      groups: row.groupCodes === null ? null : { codes: new Int32Array(decoded(row.groupCodes)), names: new PackedStrings(new Uint8Array(decoded(row.groupNames!))) },
      states: row.stateCodes === null ? null : { codes: new Int32Array(decoded(row.stateCodes)), names: row.stateNames! },
    },
  };
}
