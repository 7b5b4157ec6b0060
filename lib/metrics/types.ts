import type { LabelKind } from "../csv/solution";

/**
 * A metric of docs/mechanism.md §4: a per-row value f(prediction, label) ∈ [0, 1] whose mean over a split is the
 * query Q, so that Δ_Q = 1/n. Class metrics compare integer class codes (a submission's classes are
 * the solution's, lib/csv/submission.ts); numeric metrics compare numbers.
 */
export type Metric = {
  name: MetricName;
  title: string;
  /** which way is better for the displayed value */
  direction: "higher" | "lower";
  /** how labels and predictions are read from the CSVs (lib/csv/solution.ts) */
  input: LabelKind;
  /** f(prediction, label) ∈ [0, 1] */
  perRow: (prediction: number, label: number) => number;
  /** the mean in [0, 1] in the metric's natural units (e.g. log-loss in nats, MAE in label units) */
  toDisplay: (mean: number) => number;
};

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
} as const satisfies Record<string, { title: string; input: LabelKind; params: "none" | "pMin" | "range" }>;

export type MetricName = keyof typeof METRIC_CATALOGUE;

export const METRIC_NAMES = Object.keys(METRIC_CATALOGUE) as MetricName[];

/** The name, title and label kind of a metric, from the catalogue (each metric file starts with these). */
export function described<N extends MetricName>(name: N): { name: N; title: string; input: LabelKind } {
  return { name, title: METRIC_CATALOGUE[name].title, input: METRIC_CATALOGUE[name].input };
}

export type MetricParams = { pMin?: number; lo?: number; hi?: number };
