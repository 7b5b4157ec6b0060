import { described, type Metric } from "./types";

/** Brier score for binary labels: (p − y)², p ∈ [0, 1], y ∈ {0, 1} (Brier 1950). */
export function brier(): Metric {
  return {
    ...described("brier"),
    direction: "lower",
    perRow: (p, y) => (p - y) * (p - y),
    toDisplay: (mean) => mean,
  };
}
