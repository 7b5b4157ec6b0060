import type { LabelKind } from "../csv/solution";

/** Predictions and labels as typed arrays (class codes or numbers), and the rows of one split. */
export type SplitData = {
  predictions: Float64Array | Int32Array;
  labels: Float64Array | Int32Array;
  rows: Uint32Array;
};

/**
 * How a split's query value moves with its rows (docs/mechanism.md §4): `sensitivity` Δ, the most one
 * row can move it (1/n for a mean of [0, 1] values; the noise grid and the privacy accounting use
 * it), `concentration`, 1/Σᵢ cᵢ² for the bounded differences cᵢ of McDiarmid's inequality
 * (n for a mean: P[|Q − E Q| > t] ≤ 2e^{−2t²·concentration}), which the proofs and the sampling
 * error use in place of n, and `additive`: whether Q is a mean of per-row values, which some
 * concentration inequalities for correlated rows need (lib/calibration/concentration.ts).
 */
export type SplitShape = { rows: number; sensitivity: number; concentration: number; additive: boolean };

/**
 * A metric of docs/mechanism.md §4: a query value Q ∈ [0, 1] on a split — the mean of a per-row
 * value for most metrics, ROC AUC for one — with bounded differences. Class metrics compare integer
 * class codes (a submission's classes are the solution's, lib/csv/submission.ts); numeric metrics
 * compare numbers.
 */
export type Metric = {
  name: MetricName;
  title: string;
  /** which way is better for the displayed value */
  direction: "higher" | "lower";
  /** how labels and predictions are read from the CSVs (lib/csv/solution.ts) */
  input: LabelKind;
  /** Q over one split's rows, in [0, 1] */
  evaluate: (data: SplitData) => number;
  /** Δ and the concentration size of a split with these labels */
  shape: (labels: Float64Array | Int32Array, rows: Uint32Array) => SplitShape;
  /** how Q is shown (displayed below) */
  display: Display;
  /** Q in the metric's natural units (e.g. log-loss in nats, MAE in label units, RMSE the root of the MSE) */
  toDisplay: (value: number) => number;
  /** displayHalfWidth below, for this metric */
  displayHalfWidth: (value: number, w: number) => number;
};

/** How a query value is shown: times `scale`, or, for RMSE and RMSLE, its root times `scale`. */
export type Display = { scale: number; root: boolean };

/** Q in display units. */
export function displayed({ scale, root }: Display, value: number): number {
  return (root ? Math.sqrt(Math.max(0, value)) : value) * scale;
}

/**
 * The half-width, in display units, of the interval value ± w: w × scale, or for a root the larger
 * side of [√(v − w), √(v + w)] × scale. At value 0 it bounds every deviation of w (√ is concave).
 */
export function displayedHalfWidth(display: Display, value: number, w: number): number {
  if (!display.root) return w * display.scale;
  const at = displayed(display, value);
  return Math.max(displayed(display, value + w) - at, at - displayed(display, value - w));
}

/**
 * The metrics Quiltboard offers: the one list of their names, their names for people, the labels
 * they read and the parameters they take. Pure data: the metric files, the API's validation and the
 * pages (client components too) all read it.
 */
export const METRIC_CATALOGUE = {
  accuracy: { title: "Accuracy", input: "class", params: "none" },
  "error-rate": { title: "Error rate", input: "class", params: "none" },
  brier: { title: "Brier score", input: "probability", params: "none" },
  "log-loss": { title: "Log-loss", input: "probability", params: "pMin" },
  "absolute-error": { title: "Mean absolute error", input: "number", params: "range" },
  "squared-error": { title: "Mean squared error", input: "number", params: "range" },
  rmse: { title: "Root mean squared error", input: "number", params: "range" },
  rmsle: { title: "Root mean squared log error", input: "number", params: "range" },
  "roc-auc": { title: "ROC AUC", input: "probability", params: "none" },
} as const satisfies Record<string, { title: string; input: LabelKind; params: "none" | "pMin" | "range" }>;

export type MetricName = keyof typeof METRIC_CATALOGUE;

export const METRIC_NAMES = Object.keys(METRIC_CATALOGUE) as MetricName[];

/** The name, title and label kind of a metric, from the catalogue (each metric file starts with these). */
export function described<N extends MetricName>(name: N): { name: N; title: string; input: LabelKind } {
  return { name, title: METRIC_CATALOGUE[name].title, input: METRIC_CATALOGUE[name].input };
}

export type MetricParams = { pMin?: number; lo?: number; hi?: number };

/** What a metric that is the mean of a per-row value f ∈ [0, 1] over a split needs to say: f and how it is shown. */
type MeanMetric = Omit<Metric, "evaluate" | "shape" | "display" | "toDisplay" | "displayHalfWidth"> & {
  perRow: (prediction: number, label: number) => number;
  display: Display;
};

/** A metric that is the mean of a per-row value, which it exposes (the tests read it row by row). */
export type PerRowMetric = Metric & { perRow: (prediction: number, label: number) => number };

/**
 * Q = the mean of f over the split's rows: Δ = 1/n, concentration n. A metric shown as a root (RMSE,
 * RMSLE: docs/mechanism.md §4) is ranked and checked on the mean itself; the root is monotone, so the
 * order and the mechanism's check are the mean's.
 */
export function meanMetric({ perRow, display, ...rest }: MeanMetric): PerRowMetric {
  return {
    ...rest,
    perRow,
    evaluate: ({ predictions, labels, rows }) => {
      let sum = 0;
      for (let k = 0; k < rows.length; k++) sum += perRow(predictions[rows[k]], labels[rows[k]]);
      return sum / rows.length;
    },
    shape: (_, rows) => ({ rows: rows.length, sensitivity: 1 / rows.length, concentration: rows.length, additive: true }),
    display,
    toDisplay: (value) => displayed(display, value),
    displayHalfWidth: (value, w) => displayedHalfWidth(display, value, w),
  };
}
