import { described, type Metric } from "./types";
import { checkRange } from "./range";

/** Absolute error over the declared range: min(1, |ŷ − y| / (hi − lo)); displayed in label units. */
export function absoluteError(lo?: number, hi?: number): Metric {
  const range = checkRange(lo, hi);
  const width = range.hi - range.lo;
  return {
    ...described("absolute-error"),
    direction: "lower",
    perRow: (prediction, label) => Math.min(1, Math.abs(prediction - label) / width),
    toDisplay: (mean) => mean * width,
  };
}
