import { described, type PerRowMetric, meanMetric } from "./types";
import { checkRange } from "./range";

/**
 * Root mean squared error over the declared range (docs/mechanism.md §4): ranked and checked on the
 * clipped, scaled mean squared error min(1, ((ŷ − y)/(hi − lo))²), shown as its root in label units.
 */
export function rmse(lo?: number, hi?: number): PerRowMetric {
  const range = checkRange(lo, hi);
  const width = range.hi - range.lo;
  return meanMetric({
    ...described("rmse"),
    direction: "lower",
    perRow: (prediction, label) => Math.min(1, ((prediction - label) / width) ** 2),
    display: { scale: width, root: true },
  });
}
