import { check } from "../mechanism/errors";
import { described, meanMetric, type PerRowMetric } from "./types";

/**
 * Binary log-loss with p clipped to [p_min, 1 − p_min], divided by −ln p_min so that each row lies
 * in [0, 1] (docs/mechanism.md §4): f = −(y ln p + (1 − y) ln(1 − p)) / (−ln p_min). Displayed in nats.
 * @param pMin clipping level in (0, 0.5); default 1e-3 (a row costs at most ln 1000 ≈ 6.9 nats)
 */
export function logLoss(pMin = 1e-3): PerRowMetric {
  check(Number.isFinite(pMin) && pMin > 0 && pMin < 0.5, `log-loss pMin must be in (0, 0.5), got ${pMin}`);
  const scale = -Math.log(pMin);
  return meanMetric({
    ...described("log-loss"),
    direction: "lower",
    perRow: (prediction, y) => {
      const p = Math.min(1 - pMin, Math.max(pMin, prediction));
      return -(y * Math.log(p) + (1 - y) * Math.log(1 - p)) / scale;
    },
    display: { scale, root: false },
  });
}
