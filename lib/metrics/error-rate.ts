import { type Metric, METRIC_TITLES } from "./types";

/** Error rate: 1 − accuracy per row (a loss). */
export function errorRate(): Metric {
  return {
    name: "error-rate",
    title: METRIC_TITLES["error-rate"],
    direction: "lower",
    input: "class",
    perRow: (prediction, label) => (prediction === label ? 0 : 1),
    toDisplay: (mean) => mean,
  };
}
