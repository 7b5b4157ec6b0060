import { described, meanMetric, type PerRowMetric } from "./types";
import { checkRange } from "./range";

/** Squared error over the declared range: min(1, ((ŷ − y) / (hi − lo))²); displayed in label units². */
export function squaredError(lo?: number, hi?: number): PerRowMetric {
  const range = checkRange(lo, hi);
  const width = range.hi - range.lo;
  return meanMetric({
    ...described("squared-error"),
    direction: "lower",
    perRow: (prediction, label) => Math.min(1, ((prediction - label) / width) ** 2),
    display: { scale: width * width, root: false },
  });
}
