import { MathInputError } from "../mechanism/errors";
import { absoluteError } from "./absolute-error";
import { accuracy } from "./accuracy";
import { brier } from "./brier";
import { errorRate } from "./error-rate";
import { logLoss } from "./log-loss";
import { squaredError } from "./squared-error";
import { METRIC_NAMES, type Metric, type MetricName, type MetricParams } from "./types";

export type { Metric, MetricName, MetricParams } from "./types";
export { METRIC_NAMES } from "./types";

// Each catalogued metric's implementation (the type makes a missing one a compile error).
const IMPLEMENTATIONS: Record<MetricName, (params: MetricParams) => Metric> = {
  accuracy: () => accuracy(),
  "error-rate": () => errorRate(),
  brier: () => brier(),
  "log-loss": (params) => logLoss(params.pMin),
  "absolute-error": (params) => absoluteError(params.lo, params.hi),
  "squared-error": (params) => squaredError(params.lo, params.hi),
};

/** The metric called `name` with its parameters; throws a MathInputError naming what is wrong. */
export function getMetric(name: string, params: MetricParams = {}): Metric {
  if (!Object.hasOwn(IMPLEMENTATIONS, name)) throw new MathInputError(`unknown metric "${name}"; choose one of ${METRIC_NAMES.join(", ")}`);
  return IMPLEMENTATIONS[name as MetricName](params);
}

/** Predictions and labels as typed arrays (class codes or numbers), and the rows of one split. */
export type SplitData = {
  predictions: Float64Array | Int32Array;
  labels: Float64Array | Int32Array;
  rows: Uint32Array;
};

/** Q over one split: the mean of f(prediction, label) over its rows, in [0, 1]. */
export function evaluateSplit(metric: Metric, data: SplitData): number {
  const { predictions, labels, rows } = data;
  if (rows.length === 0) throw new MathInputError("cannot evaluate a metric on an empty split");
  const f = metric.perRow;
  let sum = 0;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k];
    sum += f(predictions[r], labels[r]);
  }
  return sum / rows.length;
}

/** Whether score x beats score y under the metric's direction (either both in [0, 1] or both displayed). */
export function isBetter(metric: Metric, x: number, y: number): boolean {
  return metric.direction === "higher" ? x > y : x < y;
}
