import { described, type Metric } from "./types";

/** Error rate: 1 − accuracy per row (a loss). */
export function errorRate(): Metric {
  return {
    ...described("error-rate"),
    direction: "lower",
    perRow: (prediction, label) => (prediction === label ? 0 : 1),
    toDisplay: (mean) => mean,
  };
}
