import { describe, expect, it } from "vitest";
import seedrandom from "seedrandom";
import { checkTransitionMatrix, describeChain, mixingTime } from "@/lib/calibration/chain";
import { concentrationOf, isCovered } from "@/lib/calibration/concentration";
import { resolveCorrelation } from "@/lib/calibration/resolve";
import { deviationBound, lnPrefixTranscripts } from "@/lib/calibration/description-length";
import type { CorrelationModel } from "@/lib/calibration/models";
import { planPractical, type Plan } from "@/lib/calibration/planner";
import { answerCalibration } from "@/lib/calibration/calibrate";
import { calibrationRequestSchema } from "@/lib/validation/calibration";
import { answerDecimalsFor } from "@/lib/mechanism/thresholdout";

const sticky = (p: number): CorrelationModel => ({
  kind: "markov",
  transition: [
    [p, 1 - p],
    [1 - p, p],
  ],
});

/** d(t) = max_x ‖P^t(x, ·) − π‖_TV by plain iteration, for checking mixingTime. */
function distances(rows: number[][], steps: number): number[] {
  const n = rows.length;
  const { stationary } = describeChain(checkTransitionMatrix(rows));
  let power = rows.map((r) => [...r]);
  const out: number[] = [];
  for (let t = 1; t <= steps; t++) {
    out.push(Math.max(...power.map((row) => row.reduce((s, v, j) => s + Math.abs(v - stationary[j]), 0) / 2)));
    power = power.map((row) => Array.from({ length: n }, (_, j) => row.reduce((s, v, k) => s + v * rows[k][j], 0)));
  }
  return out;
}

describe("the mixing time t_mix(1/4) (Levin, Peres & Wilmer §4.5)", () => {
  it("a chain that stays with probability 0.9 mixes in 4 steps: d(t) = 0.8^t / 2, d(3) = 0.256 > 1/4 ≥ d(4) = 0.2048", () => {
    const p = checkTransitionMatrix((sticky(0.9) as { transition: number[][] }).transition);
    expect(describeChain(p).mixingTime).toBe(4);
    expect(distances((sticky(0.9) as { transition: number[][] }).transition, 5).map((d) => Number(d.toFixed(6)))).toEqual([0.4, 0.32, 0.256, 0.2048, 0.16384]);
    // p = 0.99: 0.98^t / 2 ≤ 1/4 first at t = ⌈ln 2 / −ln 0.98⌉ = 35
    expect(describeChain(checkTransitionMatrix((sticky(0.99) as { transition: number[][] }).transition)).mixingTime).toBe(35);
  });

  it("agrees with plain iteration on random chains of 2 to 6 states", () => {
    const random = seedrandom("mixing-time");
    for (let trial = 0; trial < 40; trial++) {
      const n = 2 + Math.floor(random() * 5);
      const rows = Array.from({ length: n }, (_, i) => {
        // sticky rows, so that mixing takes a while
        const weights = Array.from({ length: n }, (_, j) => (i === j ? 20 + 60 * random() : random()));
        const total = weights.reduce((a, b) => a + b, 0);
        return weights.map((w) => w / total);
      });
      const p = checkTransitionMatrix(rows);
      const summary = describeChain(p);
      const d = distances(rows, 400);
      const expected = d.findIndex((x) => x <= 0.25) + 1;
      expect(expected, `trial ${trial}`).toBeGreaterThan(0);
      expect(mixingTime(p, Float64Array.from(summary.stationary)), `trial ${trial}`).toBe(expected);
    }
  });
});

describe("which inequality covers each metric and model (docs/mechanism.md §2.5)", () => {
  const n = 100_000;
  // ROC AUC with 20 % positives: N = 1/Σcᵢ² = n₊n₋/n
  const auc = { concentration: (0.2 * n * 0.8 * n) / n, additive: false };

  it("independent rows: Hoeffding (with its Chernoff–KL form) for a mean, McDiarmid for ROC AUC", () => {
    expect(concentrationOf({ n, model: { kind: "independent" } })).toMatchObject({ size: n, kl: true });
    expect(concentrationOf({ n, model: { kind: "independent" }, ...auc })).toMatchObject({ size: 16_000, kl: false });
  });

  it("groups of at most k rows: McDiarmid over the groups, N/k, for a mean and for ROC AUC", () => {
    expect(concentrationOf({ n, model: { kind: "groups", maxGroupSize: 4 } })).toMatchObject({ size: n / 4, kl: false });
    expect(concentrationOf({ n, model: { kind: "groups", maxGroupSize: 4 }, ...auc })).toMatchObject({ size: 4_000, kl: false });
  });

  it("a Markov chain: Fan, Jiang & Sun's n(1 − λ)/(1 + λ) for a mean; for ROC AUC, which is not an additive functional, Paulin's N/(9·t_mix)", () => {
    // λ = 0.8 for the p = 0.9 chain: n(1 − λ)/(1 + λ) = n/9; t_mix = 4, so Paulin gives N/36
    const mean = concentrationOf({ n, model: sticky(0.9) });
    expect(isCovered(mean) && mean.size).toBeCloseTo(n / 9, 6);
    const rocAuc = concentrationOf({ n, model: sticky(0.9), ...auc });
    expect(isCovered(rocAuc) && rocAuc.size).toBeCloseTo(16_000 / 36, 9);
    expect(isCovered(rocAuc) && rocAuc.inequality).toContain("Paulin 2015");
  });

  it("a chain started away from π: Fan's bound needs a stationary start, so a mean counts Paulin's n/(9·t_mix)", () => {
    const model = { ...sticky(0.9), initial: [1, 0] } as CorrelationModel;
    expect(concentrationOf({ n, model })).toMatchObject({ size: n / 36 });
  });

  it("short chains (one per user) count at least as independent groups of the longest chain", () => {
    const model = { ...sticky(0.99), chains: Array.from({ length: 20_000 }, () => 5) } as CorrelationModel;
    // Fan: n(0.02)/(1.98) ≈ n/99, Paulin: N/(9·35) for ROC AUC; groups of 5 rows: n/5 and N/5
    expect(concentrationOf({ n, model })).toMatchObject({ size: n / 5 });
    expect(concentrationOf({ n, model, ...auc })).toMatchObject({ size: 16_000 / 5 });
  });

  it("a max-influence bound gives no concentration inequality: no guarantee, and the models that give one are named", () => {
    const covered = concentrationOf({ n, model: { kind: "max-influence", bound: 0.001 } });
    expect(isCovered(covered)).toBe(false);
    expect(!isCovered(covered) && covered.problem).toContain("independent rows, groups (a group column) or a Markov chain (a state column)");
    const plan = planPractical({ n: 1_000_000, model: { kind: "max-influence", bound: 0.001 } }, { sigma: 0.0005, threshold: 0.016, budget: 5, beta: 0.05, maxQueries: 300 });
    expect(plan.guarantee.holds).toBe(false);
    expect(plan.guarantee.byProof.bdp.holds).toBe(false);
    expect(plan.guarantee.byProof.descriptionLength).toBeNull();
    expect(plan.guarantee.explanation).toContain("no concentration inequality");
  });

  it("ROC AUC on a chain staying with probability 0.9: the stated deviation is Paulin's, 2.0× the additive-functional figure (10⁵ rows, 20 % positives, B₀ = 5, m = 300)", () => {
    const sigma = 0.002;
    const setting = { n, model: sticky(0.9), sensitivity: 1 / (0.2 * n), ...auc };
    const plan = planPractical(setting, { sigma, threshold: 32 * sigma, budget: 5, beta: 0.05, maxQueries: 300 });
    const lnCount = lnPrefixTranscripts({ queries: 300, holdoutAnswers: 5, values: 10 ** answerDecimalsFor(sigma) + 1 });
    const paulin = deviationBound(lnCount, 16_000 / 36, 0.05 / 3);
    const additive = deviationBound(lnCount, 16_000 / 9, 0.05 / 3);
    expect(plan.guarantee.byProof.descriptionLength!.deviation).toBeCloseTo(paulin, 12);
    expect(paulin / additive).toBeCloseTo(2, 12);
    expect(paulin).toBeGreaterThan(0.25);
  });

  it("POST /api/v1/calibrate plans ROC AUC on a chain with Paulin's inequality when told the metric and its positive rows", () => {
    const question = calibrationRequestSchema.parse({
      n,
      model: sticky(0.9),
      metric: { name: "roc-auc", positives: 20_000 },
      mechanism: { mode: "practical", sigma: 0.002, threshold: 0.064, budget: 5, maxQueries: 300 },
    });
    const plan = answerCalibration(question) as Plan;
    expect(plan.scores!.concentration).toEqual({ size: expect.closeTo(16_000 / 36, 9), inequality: expect.stringContaining("Paulin 2015") });
    expect(() => calibrationRequestSchema.parse({ ...question, metric: { name: "roc-auc", positives: n } })).toThrow("fewer than n");
  });
});

describe("a holdout in half a million groups (a 10⁶-row solution with a group column)", () => {
  // Each was a RangeError on the worker thread (the largest of the chains' lengths was taken as
  // Math.max(...lengths), a function call with 500,000 arguments), so GET …/publish of such a draft
  // was a 500.
  const rows = 1_000_000;
  const columns = {
    split: Uint8Array.from({ length: rows }, (_, r) => (r % 4 < 2 ? 1 : 0)),
    order: null,
    groups: { codes: Int32Array.from({ length: rows }, (_, r) => r >> 1) },
    states: { codes: Int32Array.from({ length: rows }, (_, r) => r % 3 && 1), names: ["a", "b"] },
  };
  const n = rows / 2;

  it("the groups model reads its largest group from the solution: 2 holdout rows, 250,000 groups of that size", () => {
    const summary = resolveCorrelation({ kind: "groups" }, n, columns);
    expect([summary.model, summary.nEff, summary.groupSizes]).toEqual([{ kind: "groups", maxGroupSize: 2 }, n / 2, { "2": 250_000 }]);
    expect(() => resolveCorrelation({ kind: "groups", maxGroupSize: 1 }, n, columns)).toThrow("maxGroupSize 1 is smaller than the largest group in the solution (2 holdout rows)");
  });

  it("a Markov chain fitted per group: 250,000 chains of 2 rows, the longest 2, and their concentration n/2", () => {
    const summary = resolveCorrelation({ kind: "markov", fit: { alpha: 1 } }, n, columns);
    expect([summary.chain!.chains, summary.chain!.longestChain]).toEqual([250_000, 2]);
    expect(concentrationOf({ n, model: summary.model })).toMatchObject({ size: n / 2 });
  });
});
