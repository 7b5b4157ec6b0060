import { check } from "./errors";
import { clampUnit, discreteLaplaceQuantile, gridFor, sampleDiscreteLaplace, snapToGrid } from "./noise";
import type { Streams } from "./rng";

/**
 * Zhao 2017, Algorithm 1 (after Dwork et al. 2015's Thresholdout), one instance per team.
 *
 *   init:     T̂ ← T + Lap(σ)
 *   query i:  if B < 1: answer ⊥
 *             γ ← Lap(2σ)
 *             if |Q(X) − Q(D)| + γ > T̂:  B ← B − 1;  T̂ ← T + Lap(σ);  answer Q(X) + Lap(4σ)
 *             else:                      answer Q(D)
 *
 * Noise is discrete Laplace on the grid of docs/mechanism.md §2.3 (for the queries' sensitivity Δ); statistics are snapped to the grid
 * first and released answers are clamped to [0, 1]; a holdout answer is then rounded to
 * `answerDecimals` decimals, so that it takes one of 10^d + 1 values (the count of docs/mechanism.md
 * §2.7). Each draw has its own stream (rng.ts): the threshold of query index 0 is the initial T̂;
 * query i ≥ 1 draws "gamma", then on a charge "answer" and "threshold" (the refreshed T̂).
 *
 * The guarantee covers m queries per team: from query m + 1 on (counting a merged team's absorbed
 * queries), the answer is "limit" (no score released, nothing spent), said apart from ⊥ for a spent
 * budget.
 */
export type ThresholdoutParams = {
  /** σ, the noise rate (Laplace scale of T̂), in metric units */
  sigma: number;
  /** T, the threshold on |Q(X) − Q(D)|, in metric units */
  threshold: number;
  /** B₀, the number of holdout answers a team may receive */
  budget: number;
  /** Δ, the most one holdout row can move a query's value (docs/mechanism.md §4): 1/n for a mean */
  sensitivity: number;
  /** m, the number of queries the guarantee covers; later queries are answered "limit" */
  maxQueries: number;
  /** d: holdout answers are released rounded to d decimals */
  answerDecimals: number;
};

/** JSON-serialisable per-team state. `noisyThreshold` is T̂: secret, never shown to a competitor. */
export type ThresholdoutState = {
  budget: number;
  noisyThreshold: number;
  /** number of queries answered from this team's streams so far; the next query has index queries + 1 */
  queries: number;
  /**
   * queries of the teams this team absorbed: the merged team's transcript holds them too, so its
   * query i is the (absorbed + i)-th, and the limit m counts them (docs/mechanism.md §2.8)
   */
  absorbed: number;
};

/** One query: the submission's metric value on the holdout X and on the public split D, in [0, 1]. */
export type ThresholdoutQuery = { holdoutValue: number; publicValue: number };

export type AnswerKind = "public" | "holdout" | "exhausted" | "limit";
export type ThresholdoutAnswer = { kind: AnswerKind; value: number | null };

/** Checks the parameters; throws a MathInputError naming the first bad one. */
export function checkThresholdoutParams(params: ThresholdoutParams): void {
  const { sigma, threshold, budget } = params;
  check(Number.isFinite(sigma) && sigma > 0, `sigma must be a positive number, got ${sigma}`);
  check(Number.isFinite(threshold) && threshold >= 0, `threshold must be ≥ 0, got ${threshold}`);
  check(Number.isInteger(budget) && budget >= 0, `budget must be a whole number ≥ 0, got ${budget}`);
  const delta = params.sensitivity;
  check(delta > 0 && delta <= 1, `sensitivity must be in (0, 1], got ${delta}`);
  const m = params.maxQueries;
  check(Number.isInteger(m) && m >= 1, `maxQueries must be a whole number ≥ 1, got ${m}`);
  const d = params.answerDecimals;
  check(Number.isInteger(d) && d >= 1 && d <= 8, `answerDecimals must be a whole number from 1 to 8, got ${d}`);
}

/** Algorithm 1, line 2: the initial state, with T̂ ← T + Lap(σ) drawn from stream (0, "threshold"). */
export function initThresholdout(params: ThresholdoutParams, streams: Streams): ThresholdoutState {
  checkThresholdoutParams(params);
  return { budget: params.budget, noisyThreshold: drawThreshold(params, streams, 0), queries: 0, absorbed: 0 };
}

/** Algorithm 1, lines 3–13, for one query: a pure step from state to answer and next state. */
export function stepThresholdout(
  params: ThresholdoutParams,
  state: ThresholdoutState,
  query: ThresholdoutQuery,
  streams: Streams,
): { answer: ThresholdoutAnswer; state: ThresholdoutState } {
  checkQueryValue("holdout", query.holdoutValue);
  checkQueryValue("public", query.publicValue);
  const grid = gridFor(params.sensitivity);
  const index = state.queries + 1;
  const holdout = snapToGrid(query.holdoutValue, grid);
  const publicValue = snapToGrid(query.publicValue, grid);
  const next = { ...state, queries: index };

  if (index + state.absorbed > params.maxQueries) return { answer: { kind: "limit", value: null }, state: next };
  if (state.budget < 1) return { answer: { kind: "exhausted", value: null }, state: next };
  const gamma = sampleDiscreteLaplace(2 * params.sigma, grid, streams(index, "gamma"));
  if (Math.abs(holdout - publicValue) + gamma > state.noisyThreshold) {
    const noise = sampleDiscreteLaplace(4 * params.sigma, grid, streams(index, "answer"));
    return {
      answer: { kind: "holdout", value: roundAnswer(clampUnit(holdout + noise), params.answerDecimals) },
      state: { ...next, budget: state.budget - 1, noisyThreshold: drawThreshold(params, streams, index) },
    };
  }
  return { answer: { kind: "public", value: clampUnit(publicValue) }, state: next };
}

/**
 * Half-width w of the 95 % interval of a released holdout value: the smallest grid multiple with
 * P[|Z| ≤ w] ≥ 0.95 for Z the discrete Laplace of scale 4σ (noise.ts). For a fine grid this is
 * 4σ ln 20 ≈ 12σ. In [0, 1] units, like σ.
 */
export function answerHalfWidth(params: Pick<ThresholdoutParams, "sigma" | "sensitivity">, level = 0.95): number {
  check(level > 0 && level < 1, `level must be in (0, 1), got ${level}`);
  const grid = gridFor(params.sensitivity);
  return discreteLaplaceQuantile((1 + level) / 2, 4 * params.sigma, grid);
}

/**
 * The decimals a holdout answer is released with at noise σ: the release step is at most a tenth of
 * the 95 % half-width 4σ ln 20 of the answer's noise, so rounding moves an answer by at most a
 * twentieth of that half-width; between 1 and 8 decimals.
 */
export function answerDecimalsFor(sigma: number): number {
  check(Number.isFinite(sigma) && sigma > 0, `sigma must be a positive number, got ${sigma}`);
  return Math.min(8, Math.max(1, Math.ceil(-Math.log10((4 * sigma * Math.log(20)) / 10))));
}

/** A released value rounded to d decimals. */
function roundAnswer(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

function drawThreshold(params: ThresholdoutParams, streams: Streams, index: number): number {
  const grid = gridFor(params.sensitivity);
  return snapToGrid(params.threshold, grid) + sampleDiscreteLaplace(params.sigma, grid, streams(index, "threshold"));
}

function checkQueryValue(split: string, value: number): void {
  check(Number.isFinite(value) && value >= 0 && value <= 1, `${split} value must be in [0, 1], got ${value}`);
}
