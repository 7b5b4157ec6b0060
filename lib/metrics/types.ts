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
  /**
   * How labels and predictions are read from the CSVs: class strings; probabilities (labels 0/1,
   * predictions in [0, 1]); or numbers.
   */
  input: "class" | "probability" | "number";
  /** f(prediction, label) ∈ [0, 1] */
  perRow: (prediction: number, label: number) => number;
  /** the mean in [0, 1] in the metric's natural units (e.g. log-loss in nats, MAE in label units) */
  toDisplay: (mean: number) => number;
};

export type MetricName = "accuracy" | "error-rate" | "brier" | "log-loss" | "absolute-error" | "squared-error";

/** Each metric's name for people: the one place it is written (metric files and pages read it). */
export const METRIC_TITLES: Record<MetricName, string> = {
  accuracy: "Accuracy",
  "error-rate": "Error rate",
  brier: "Brier score",
  "log-loss": "Log-loss",
  "absolute-error": "Mean absolute error",
  "squared-error": "Mean squared error",
};

export type MetricParams = { pMin?: number; lo?: number; hi?: number };
