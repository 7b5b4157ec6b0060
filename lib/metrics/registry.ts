import { MathInputError } from "../mechanism/errors";
import { absoluteError } from "./absolute-error";
import { accuracy } from "./accuracy";
import { brier } from "./brier";
import { errorRate } from "./error-rate";
import { logLoss } from "./log-loss";
import { rmse } from "./rmse";
import { rmsle } from "./rmsle";
import { rocAuc } from "./roc-auc";
import { squaredError } from "./squared-error";
import { METRIC_NAMES, type Metric, type MetricName, type MetricParams, type SplitData, type SplitShape } from "./types";

export type { Metric, MetricName, MetricParams, SplitData, SplitShape } from "./types";
export { METRIC_NAMES } from "./types";

// Each catalogued metric's implementation (the type makes a missing one a compile error).
const IMPLEMENTATIONS: Record<MetricName, (params: MetricParams) => Metric> = {
  accuracy: () => accuracy(),
  "error-rate": () => errorRate(),
  brier: () => brier(),
  "log-loss": (params) => logLoss(params.pMin),
  "absolute-error": (params) => absoluteError(params.lo, params.hi),
  "squared-error": (params) => squaredError(params.lo, params.hi),
  rmse: (params) => rmse(params.lo, params.hi),
  rmsle: (params) => rmsle(params.lo, params.hi),
  "roc-auc": () => rocAuc(),
};

/** The metric called `name` with its parameters; throws a MathInputError naming what is wrong. */
export function getMetric(name: string, params: MetricParams = {}): Metric {
  if (!Object.hasOwn(IMPLEMENTATIONS, name)) throw new MathInputError(`unknown metric "${name}"; choose one of ${METRIC_NAMES.join(", ")}`);
  return IMPLEMENTATIONS[name as MetricName](params);
}

/** Q over one split, in [0, 1] (the metric's own evaluation: a mean of per-row values, or ROC AUC). */
export function evaluateSplit(metric: Metric, data: SplitData): number {
  if (data.rows.length === 0) throw new MathInputError("cannot evaluate a metric on an empty split");
  return metric.evaluate(data);
}

/**
 * Δ and the concentration size of both splits of a solution (docs/mechanism.md §4); a MathInputError
 * naming the split when the metric cannot be computed on it (ROC AUC on a split with one class).
 */
export function splitShapes(metric: Metric, labels: Float64Array | Int32Array, split: Uint8Array): { public: SplitShape; holdout: SplitShape } {
  const shapeOf = (value: number, name: string) => {
    const rows: number[] = [];
    split.forEach((s, i) => s === value && rows.push(i));
    try {
      return metric.shape(labels, Uint32Array.from(rows));
    } catch (error) {
      throw error instanceof MathInputError ? new MathInputError(`the ${name} rows: ${error.message}`) : error;
    }
  };
  return { public: shapeOf(0, "public"), holdout: shapeOf(1, "holdout") };
}

/** Whether score x beats score y under the metric's direction (either both in [0, 1] or both displayed). */
export function isBetter(metric: Metric, x: number, y: number): boolean {
  return metric.direction === "higher" ? x > y : x < y;
}
