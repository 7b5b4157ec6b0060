import "server-only";
import { type CompetitionRow, metricOf } from "@/lib/server/competitions/competitions";
import { solutionCache } from "@/lib/server/competitions/solution-cache";
import { loadSolution } from "@/lib/server/competitions/solutions";
import { readCsvUpload } from "@/lib/server/platform/csv-upload";
import { AppError } from "@/lib/server/platform/errors";
import type { Solution } from "@/lib/csv/solution";
import { createSubmissionParser, submissionKey, submissionKeyBytes, type SubmissionKey } from "@/lib/csv/submission";
import { evaluateSplit, type Metric } from "@/lib/metrics/registry";
import { sketchOf, sketchRows } from "@/lib/metrics/sketch";

export type ScoredUpload = {
  holdoutValue: number;
  publicValue: number;
  sha256: string;
  sketch: Int32Array<ArrayBuffer>;
  kept: { compressed: Buffer<ArrayBuffer>; size: number };
  data: ScoringData;
};

/**
 * Reads and validates a predictions file in full against the solution, and computes its exact
 * holdout and public values Q(X), Q(D), its near-duplicate sketch and its compressed copy. Nothing is
 * spent or written: every rejection happens here.
 */
export async function scoreUpload(competition: CompetitionRow, metric: Metric, body: ReadableStream<Uint8Array>): Promise<ScoredUpload> {
  const data = await scoringData(competition);
  // Made once the file's first bytes are in (readCsvUpload): its working arrays are as long as the solution.
  let parser: ReturnType<typeof createSubmissionParser> | undefined;
  try {
    const {
      result: predictions,
      sha256,
      file: kept,
    } = await readCsvUpload(body, {
      what: "the submission",
      parser: () => (parser = createSubmissionParser(data.key, metric.input)),
      keep: true,
    });
    const labels = data.solution.labels;
    return {
      holdoutValue: evaluateSplit(metric, { predictions, labels, rows: data.holdoutRows }),
      publicValue: evaluateSplit(metric, { predictions, labels, rows: data.publicRows }),
      sha256,
      sketch: sketchOf(predictions, data.sketchRows),
      kept: kept!,
      data,
    };
  } finally {
    parser?.release();
  }
}

/** Largest submission accepted (docs/api.md: 413 beyond). 10⁶ rows with long ids fit. */
export const MAX_SUBMISSION_BYTES = 128 * 1024 * 1024;

type ScoringData = { solution: Solution; key: SubmissionKey; publicRows: Uint32Array; holdoutRows: Uint32Array; sketchRows: Uint32Array };

/**
 * What scoring a submission reads besides the file: the decoded solution, its id index and the rows
 * of each split, built once per solution and kept with it in the solution cache, counted in its
 * budget (scoring/warm.ts builds them ahead).
 */
export async function scoringData(competition: CompetitionRow): Promise<ScoringData> {
  const competitionId = competition.id;
  const solution = await loadSolution(competitionId, { published: competition.status !== "draft" });
  if (!solution) throw new AppError("conflict", "this competition has no solution");
  return solutionCache.derived(solution, "scoring", () => {
    const publicRows: number[] = [];
    const holdoutRows: number[] = [];
    solution.split.forEach((s, r) => (s ? holdoutRows : publicRows).push(r));
    const holdout = Uint32Array.from(holdoutRows);
    const value = { solution, key: submissionKey(solution), publicRows: Uint32Array.from(publicRows), holdoutRows: holdout, sketchRows: sketchRows(holdout, competitionId) };
    const bytes = submissionKeyBytes(value.key, metricOf(competition).input) + value.publicRows.byteLength + holdout.byteLength + value.sketchRows.byteLength;
    return { value, bytes };
  });
}
