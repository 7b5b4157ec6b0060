import { described, meanMetric, type PerRowMetric } from "./types";
import { checkRange } from "./range";

/** Absolute error over the declared range: min(1, |ŷ − y| / (hi − lo)); displayed in label units. */
export function absoluteError(lo?: number, hi?: number): PerRowMetric {
  const range = checkRange(lo, hi);
  const width = range.hi - range.lo;
  return meanMetric({
    ...described("absolute-error"),
    direction: "lower",
    perRow: (prediction, label) => Math.min(1, Math.abs(prediction - label) / width),
    display: { scale: width, root: false },
  });
}
