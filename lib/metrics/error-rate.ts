import { described, meanMetric, type PerRowMetric } from "./types";

/** Error rate: 1 − accuracy per row (a loss). */
export function errorRate(): PerRowMetric {
  return meanMetric({
    ...described("error-rate"),
    direction: "lower",
    perRow: (prediction, label) => (prediction === label ? 0 : 1),
    display: { scale: 1, root: false },
  });
}
