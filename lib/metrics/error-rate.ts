import type { Metric } from "./types";

/** Error rate: 1 − accuracy per row (a loss). */
export function errorRate(): Metric {
  return {
    name: "error-rate",
    title: "Error rate",
    direction: "lower",
    input: "class",
    perRow: (prediction, label) => (prediction === label ? 0 : 1),
    toDisplay: (mean) => mean,
  };
}
