import { described, meanMetric, type PerRowMetric } from "./types";

/** Brier score for binary labels: (p − y)², p ∈ [0, 1], y ∈ {0, 1} (Brier 1950). */
export function brier(): PerRowMetric {
  return meanMetric({
    ...described("brier"),
    direction: "lower",
    perRow: (p, y) => (p - y) * (p - y),
    display: { scale: 1, root: false },
  });
}
