import { type Metric, METRIC_TITLES } from "./types";

/** Brier score for binary labels: (p − y)², p ∈ [0, 1], y ∈ {0, 1} (Brier 1950). */
export function brier(): Metric {
  return {
    name: "brier",
    title: METRIC_TITLES["brier"],
    direction: "lower",
    input: "probability",
    perRow: (p, y) => (p - y) * (p - y),
    toDisplay: (mean) => mean,
  };
}
