import "server-only";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { type CompetitionRow, correlationOf, requireOrganizer, metricOf } from "./competitions";
import { readCsvUpload } from "@/lib/server/platform/csv-upload";
import type { PublicUser } from "@/lib/server/accounts/users";
import { lockDraft, requireDraft } from "./lifecycle";
import { declaredModel, fitsSolution, splitIntegrityProblem } from "@/lib/calibration/resolve";
import { Prisma } from "@/lib/generated/prisma/client";
import { createSolutionParser, type Solution, SolutionIds } from "@/lib/csv/solution";
import { MathInputError } from "@/lib/mechanism/errors";
import { splitShapes, type SplitShape } from "@/lib/metrics/registry";

/** Largest solution file accepted: 10⁶ rows with long ids fit comfortably. */
export const MAX_SOLUTION_BYTES = 256 * 1024 * 1024;

export type SolutionSummary = { rows: number; public: number; holdout: number; sha256: string; uploadedAt: Date };

/**
 * Streams a solution CSV from the request body through the validating parser and stores it as
 * column blobs, replacing the previous one (drafts only). Rejected files change nothing; the error
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
  const encoded = encodeSolution(solution);
  const holdout = solution.split.reduce((a, b) => a + b, 0);
  const data = {
    ...encoded,
    rows: solution.ids.length,
    publicRows: solution.ids.length - holdout,
    holdoutRows: holdout,
    sha256,
    file: file!.compressed,
    fileSize: file!.size,
    uploadedAt: new Date(),
  };
  // A solution that declares groups or states is modelled by them (resolve.ts declaredModel) unless the
  // organizer chose a model this file can still resolve.
  const chosen = correlationOf(competition);
  const model = competition.correlation !== null && fitsSolution(chosen, solution) ? competition.correlation : declaredModel(solution);
  await db.$transaction(async (tx) => {
    await lockDraft(tx, competition.id, "the solution");
    await tx.solution.upsert({ where: { competitionId: competition.id }, create: { competitionId: competition.id, ...data }, update: data });
    await tx.competition.update({ where: { id: competition.id }, data: { correlation: model ?? Prisma.DbNull } });
  });
  const crossing = splitIntegrityProblem("groups", solution);
  const warnings = crossing ? [`${crossing.charAt(0).toUpperCase()}${crossing.slice(1)} Under the groups or Markov model this solution cannot be published.`] : [];
  return { rows: data.rows, public: data.publicRows, holdout, sha256, uploadedAt: data.uploadedAt, warnings };
}

export async function getSolutionSummary(competitionId: string): Promise<SolutionSummary | null> {
  const s = await db.solution.findUnique({ where: { competitionId }, select: { rows: true, publicRows: true, holdoutRows: true, sha256: true, uploadedAt: true } });
  return s && { rows: s.rows, public: s.publicRows, holdout: s.holdoutRows, sha256: s.sha256, uploadedAt: s.uploadedAt };
}

// Decoded solutions, keyed by competition and file hash: decoded once per process, replaced when
// the organizer uploads a new file. `final` marks an entry checked against the database after the
// competition was published: from then on the file can never change (uploads are for drafts, under
// the competition's lock), so the hash need not be read again. `decoding` holds the decode in
// progress per competition and hash, so callers at the same time (a submission arriving while the
// instance warms up, scoring/warm.ts) decode it once.
const cache = new Map<string, { sha256: string; solution: Solution; final: boolean }>();
const decoding = new Map<string, Promise<{ sha256: string; solution: Solution } | null>>();

/** The decoded solution of a competition, or null when none was uploaded. `published`: the caller saw the competition published. */
export async function loadSolution(competitionId: string, options: { published?: boolean } = {}): Promise<Solution | null> {
  const cached = cache.get(competitionId);
  if (cached?.final) return cached.solution;
  const head = await db.solution.findUnique({ where: { competitionId }, select: { sha256: true } });
  if (!head) return null;
  const final = options.published ?? false;
  if (cached?.sha256 === head.sha256) {
    cached.final = final;
    return cached.solution;
  }
  const key = `${competitionId}:${head.sha256}`;
  let pending = decoding.get(key);
  if (!pending) {
    pending = db.solution.findUnique({ where: { competitionId }, omit: { file: true } }).then((row) => row && { sha256: row.sha256, solution: decodeSolution(row) });
    decoding.set(key, pending);
    void pending.finally(() => decoding.delete(key)).catch(() => {});
  }
  const decoded = await pending;
  if (!decoded) return null;
  const entry = cache.get(competitionId);
  if (entry?.sha256 === decoded.sha256) {
    entry.final ||= final;
    return entry.solution;
  }
  cache.set(competitionId, { ...decoded, final });
  return decoded.solution;
}

// Each decoded solution's split shapes, by metric (a draft's metric can change after its upload).
const shapes = new WeakMap<Solution, Map<string, { public: SplitShape; holdout: SplitShape }>>();

/**
 * Δ and the concentration size of the solution's public and holdout splits under the competition's
 * metric (docs/mechanism.md §4): 1/n and n for a mean over n rows. Throws a MathInputError when the
 * metric cannot be computed on a split (ROC AUC on a split with one class).
 */
export function shapesOf(competition: Pick<CompetitionRow, "metric" | "metricParams">, solution: Solution): { public: SplitShape; holdout: SplitShape } {
  let byMetric = shapes.get(solution);
  if (!byMetric) shapes.set(solution, (byMetric = new Map()));
  const key = JSON.stringify([competition.metric, competition.metricParams]);
  let value = byMetric.get(key);
  if (!value) byMetric.set(key, (value = splitShapes(metricOf(competition), solution.labels, solution.split)));
  return value;
}

type Encoded = {
  ids: Uint8Array<ArrayBuffer>;
  labels: Uint8Array<ArrayBuffer>;
  classes: string[] | undefined;
  split: Uint8Array<ArrayBuffer>;
  orderValues: Uint8Array<ArrayBuffer> | null;
  groupCodes: Uint8Array<ArrayBuffer> | null;
  groupNames: string[] | undefined;
  stateCodes: Uint8Array<ArrayBuffer> | null;
  stateNames: string[] | undefined;
};

function bytesOf(array: Int32Array | Float64Array | Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(array.buffer.slice(array.byteOffset, array.byteOffset + array.byteLength) as ArrayBuffer);
}

function encodeSolution(s: Solution): Encoded {
  return {
    ids: bytesOf(s.ids.bytes),
    labels: bytesOf(s.labels),
    classes: s.classes ?? undefined,
    split: bytesOf(s.split),
    orderValues: s.order ? bytesOf(s.order) : null,
    groupCodes: s.groups ? bytesOf(s.groups.codes) : null,
    groupNames: s.groups?.names,
    stateCodes: s.states ? bytesOf(s.states.codes) : null,
    stateNames: s.states?.names,
  };
}

/** A fresh, aligned copy of stored bytes. */
function buffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function decodeSolution(row: {
  ids: Uint8Array;
  labels: Uint8Array;
  classes: unknown;
  split: Uint8Array;
  orderValues: Uint8Array | null;
  groupCodes: Uint8Array | null;
  groupNames: unknown;
  stateCodes: Uint8Array | null;
  stateNames: unknown;
}): Solution {
  const classes = (row.classes as string[] | null) ?? null;
  return {
    ids: new SolutionIds(new Uint8Array(buffer(row.ids))),
    labels: classes ? new Int32Array(buffer(row.labels)) : new Float64Array(buffer(row.labels)),
    classes,
    split: new Uint8Array(buffer(row.split)),
    order: row.orderValues ? new Float64Array(buffer(row.orderValues)) : null,
    groups: row.groupCodes ? { codes: new Int32Array(buffer(row.groupCodes)), names: row.groupNames as string[] } : null,
    states: row.stateCodes ? { codes: new Int32Array(buffer(row.stateCodes)), names: row.stateNames as string[] } : null,
  };
}
