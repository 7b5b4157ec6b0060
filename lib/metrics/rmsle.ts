import { check } from "../mechanism/errors";
import { described, type PerRowMetric, meanMetric } from "./types";
import { checkRange } from "./range";

/**
 * Root mean squared log error over the declared range [lo, hi], lo > −1 (docs/mechanism.md §4):
 * ranked and checked on the clipped, scaled mean of ((ln(1 + ŷ) − ln(1 + y)) / w)², w = ln(1 + hi) −
 * ln(1 + lo), predictions clipped to the range first; shown as its root times w (Kaggle's RMSLE).
 */
export function rmsle(lo?: number, hi?: number): PerRowMetric {
  const range = checkRange(lo, hi);
  check(range.lo > -1, `root mean squared log error needs lo > −1 (it takes ln(1 + y)), got ${range.lo}`);
  const width = Math.log1p(range.hi) - Math.log1p(range.lo);
  const clip = (x: number) => Math.min(range.hi, Math.max(range.lo, x));
  return meanMetric({
    ...described("rmsle"),
    direction: "lower",
    perRow: (prediction, label) => Math.min(1, ((Math.log1p(clip(prediction)) - Math.log1p(clip(label))) / width) ** 2),
    display: { scale: width, root: true },
  });
}
