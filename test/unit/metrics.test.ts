import { describe, expect, it } from "vitest";
import { absoluteError } from "@/lib/metrics/absolute-error";
import { logLoss } from "@/lib/metrics/log-loss";
import { evaluateSplit, getMetric, splitShapes } from "@/lib/metrics/registry";
import { rmse } from "@/lib/metrics/rmse";
import { rmsle } from "@/lib/metrics/rmsle";
import { squaredError } from "@/lib/metrics/squared-error";

const rows = Uint32Array.from([0, 1, 2, 3]);

describe("metrics (docs/mechanism.md §4)", () => {
  it("accuracy and error rate on class codes", () => {
    const labels = Int32Array.from([0, 1, 2, 1]);
    const predictions = Int32Array.from([0, 1, 1, -1]);
    expect(evaluateSplit(getMetric("accuracy"), { labels, predictions, rows })).toBe(0.5);
    expect(evaluateSplit(getMetric("error-rate"), { labels, predictions, rows })).toBe(0.5);
    expect(evaluateSplit(getMetric("accuracy"), { labels, predictions, rows: Uint32Array.from([0, 1]) })).toBe(1);
  });

  it("Brier score", () => {
    const labels = Float64Array.from([1, 0, 1, 0]);
    const predictions = Float64Array.from([0.9, 0.2, 0.5, 0]);
    expect(evaluateSplit(getMetric("brier"), { labels, predictions, rows })).toBeCloseTo((0.01 + 0.04 + 0.25 + 0) / 4, 15);
  });

  it("log-loss is clipped, scaled into [0, 1] and displayed in nats", () => {
    const m = logLoss(0.01);
    const scale = -Math.log(0.01);
    expect(m.perRow(1, 1)).toBeCloseTo(-Math.log(0.99) / scale, 15);
    expect(m.perRow(0, 1)).toBeCloseTo(1, 15);
    expect(m.perRow(0.5, 0)).toBeCloseTo(Math.log(2) / scale, 15);
    expect(m.toDisplay(m.perRow(0.5, 0))).toBeCloseTo(Math.log(2), 15);
  });

  it("absolute and squared error over the declared range, clipped", () => {
    const mae = absoluteError(0, 10);
    expect(mae.perRow(3, 5)).toBeCloseTo(0.2, 15);
    expect(mae.perRow(-30, 5)).toBe(1);
    expect(mae.toDisplay(0.2)).toBeCloseTo(2, 15);
    const mse = squaredError(0, 10);
    expect(mse.perRow(3, 5)).toBeCloseTo(0.04, 15);
    expect(mse.toDisplay(0.04)).toBeCloseTo(4, 12);
  });

  it("directions", () => {
    expect(getMetric("accuracy").direction).toBe("higher");
    for (const name of ["error-rate", "brier", "log-loss"]) expect(getMetric(name).direction).toBe("lower");
  });

  it("errors name the problem", () => {
    expect(() => getMetric("auc")).toThrow('unknown metric "auc"');
    expect(() => getMetric("rmsle", { lo: -2, hi: 3 })).toThrow("lo > −1");
    expect(() => getMetric("absolute-error")).toThrow("need the label range: params lo and hi");
    expect(() => getMetric("squared-error", { lo: 3, hi: 3 })).toThrow("lo < hi");
    expect(() => evaluateSplit(getMetric("accuracy"), { labels: new Int32Array(0), predictions: new Int32Array(0), rows: new Uint32Array(0) })).toThrow("empty split");
  });

  // scikit-learn's test_roc_curve_toydata (sklearn/metrics/tests/test_ranking.py) and the
  // roc_auc_score docstring: y_true, y_score → roc_auc_score.
  it("ROC AUC matches scikit-learn's roc_auc_score, ties included", () => {
    const auc = (y: number[], p: number[]) =>
      evaluateSplit(getMetric("roc-auc"), { labels: Float64Array.from(y), predictions: Float64Array.from(p), rows: Uint32Array.from(y.map((_, i) => i)) });
    expect(auc([0, 1], [0, 1])).toBe(1);
    expect(auc([0, 1], [1, 0])).toBe(0);
    expect(auc([1, 0], [1, 1])).toBe(0.5);
    expect(auc([1, 0], [1, 0])).toBe(1);
    expect(auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])).toBe(0.75);
    // Against an independent count over every (positive, negative) pair, ties one half, on a file with many ties.
    const y = [1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1, 0];
    const p = [0.9, 0.1, 0.5, 0.5, 0.5, 0.2, 0.2, 0.2, 0.9, 0.7, 0.1, 0.6];
    let pairs = 0;
    let wins = 0;
    for (let i = 0; i < y.length; i++)
      for (let j = 0; j < y.length; j++) {
        if (y[i] !== 1 || y[j] !== 0) continue;
        pairs++;
        wins += p[i] > p[j] ? 1 : p[i] === p[j] ? 0.5 : 0;
      }
    expect(auc(y, p)).toBeCloseTo(wins / pairs, 15);
    expect(() => auc([1, 1], [0.2, 0.3])).toThrow("needs both classes");
  });

  it("Δ and the concentration size: 1/n and n for a mean; 1/min(n₊, n₋) and n₊n₋/n for ROC AUC, which is not a mean", () => {
    const labels = Float64Array.from([1, 0, 0, 0, 1, 1, 0, 0, 0, 0]);
    const split = Uint8Array.from([1, 1, 1, 1, 0, 0, 0, 1, 1, 1]); // holdout: 1 positive, 6 negatives
    expect(splitShapes(getMetric("brier"), labels, split)).toEqual({
      public: { rows: 3, sensitivity: 1 / 3, concentration: 3, additive: true },
      holdout: { rows: 7, sensitivity: 1 / 7, concentration: 7, additive: true },
    });
    expect(splitShapes(getMetric("roc-auc"), labels, split)).toEqual({
      public: { rows: 3, sensitivity: 1, concentration: 2 / 3, additive: false },
      holdout: { rows: 7, sensitivity: 1, concentration: 6 / 7, additive: false },
    });
    const oneClass = Uint8Array.from([0, 1, 1, 1, 0, 1, 1, 1, 1, 1]); // public rows 0 and 4: both positive
    expect(() => splitShapes(getMetric("roc-auc"), labels, oneClass)).toThrow("the public rows: ROC AUC needs both classes, found 2 positive and 0 negative rows");
  });

  it("RMSE and RMSLE: checked on the clipped mean of squares, shown as its root", () => {
    const m = rmse(0, 10);
    const labels = Float64Array.from([5, 5, 5, 5]);
    const predictions = Float64Array.from([3, 7, 5, 1e9]); // the last is clipped to a squared error of 1 (the range)
    const value = evaluateSplit(m, { labels, predictions, rows });
    expect(value).toBeCloseTo((0.04 + 0.04 + 0 + 1) / 4, 15);
    expect(m.toDisplay(value)).toBeCloseTo(Math.sqrt(value) * 10, 12);
    // An interval v ± w shows as the larger side of [√(v − w), √(v + w)] in label units.
    expect(m.displayHalfWidth(0.04, 0.01)).toBeCloseTo((Math.sqrt(0.04) - Math.sqrt(0.03)) * 10, 12);
    expect(m.displayHalfWidth(0, 0.01)).toBeCloseTo(1, 12);
    const l = rmsle(0, 99);
    const w = Math.log(100);
    expect(l.perRow(9, 0)).toBeCloseTo((Math.log(10) / w) ** 2, 15);
    expect(l.perRow(-5, 99)).toBe(1); // a prediction below the range is clipped to it
    expect(l.toDisplay(l.perRow(9, 0))).toBeCloseTo(Math.log(10), 12);
  });
});
