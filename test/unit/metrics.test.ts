import { describe, expect, it } from "vitest";
import { evaluateSplit, getMetric } from "@/lib/metrics/registry";

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
    const m = getMetric("log-loss", { pMin: 0.01 });
    const scale = -Math.log(0.01);
    expect(m.perRow(1, 1)).toBeCloseTo(-Math.log(0.99) / scale, 15);
    expect(m.perRow(0, 1)).toBeCloseTo(1, 15);
    expect(m.perRow(0.5, 0)).toBeCloseTo(Math.log(2) / scale, 15);
    expect(m.toDisplay(m.perRow(0.5, 0))).toBeCloseTo(Math.log(2), 15);
  });

  it("absolute and squared error over the declared range, clipped", () => {
    const mae = getMetric("absolute-error", { lo: 0, hi: 10 });
    expect(mae.perRow(3, 5)).toBeCloseTo(0.2, 15);
    expect(mae.perRow(-30, 5)).toBe(1);
    expect(mae.toDisplay(0.2)).toBeCloseTo(2, 15);
    const mse = getMetric("squared-error", { lo: 0, hi: 10 });
    expect(mse.perRow(3, 5)).toBeCloseTo(0.04, 15);
    expect(mse.toDisplay(0.04)).toBeCloseTo(4, 12);
  });

  it("directions", () => {
    expect(getMetric("accuracy").direction).toBe("higher");
    for (const name of ["error-rate", "brier", "log-loss"]) expect(getMetric(name).direction).toBe("lower");
  });

  it("errors name the problem", () => {
    expect(() => getMetric("auc")).toThrow('unknown metric "auc"');
    expect(() => getMetric("absolute-error")).toThrow("need the label range: params lo and hi");
    expect(() => getMetric("squared-error", { lo: 3, hi: 3 })).toThrow("lo < hi");
    expect(() => evaluateSplit(getMetric("accuracy"), { labels: new Int32Array(0), predictions: new Int32Array(0), rows: new Uint32Array(0) })).toThrow("empty split");
  });
});
