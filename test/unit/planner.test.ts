import { describe, expect, it } from "vitest";
import { epsPerHoldoutAnswer } from "@/lib/mechanism/accounting";
import { calibrateEpsBdp, calibrateEpsDp, effectiveSize, type CorrelationModel } from "@/lib/calibration/models";
import { maxBudget, planGuarantee, planPractical, requiredN, smallestTolerance, targetEpsBdp, theorem2Parameters } from "@/lib/calibration/planner";

const INDEPENDENT: CorrelationModel = { kind: "independent" };
const markov = (p: number): CorrelationModel => ({
  kind: "markov",
  transition: [
    [p, 1 - p],
    [1 - p, p],
  ],
});
const GUARANTEE = { tolerance: 0.2, beta: 0.05, maxQueries: 100, split: 0.5 };

describe("Theorem 2 parameters", () => {
  it("σ, T, τ', β' for τ = 0.2, β = 0.05, m = 100, c = ½ (textbook values)", () => {
    const t = theorem2Parameters(GUARANTEE);
    // σ = (1 − c)τ / (12 ln(4m/β)) = 0.1 / (12 ln 8000) = 0.1 / 107.8464… = 9.27245e-4
    expect(t.sigma).toBeCloseTo(0.1 / (12 * Math.log(8000)), 15);
    expect(t.sigma).toBeCloseTo(9.27245e-4, 9);
    expect(t.threshold).toBeCloseTo(0.15, 15);
    expect(t.tauPrime).toBeCloseTo(0.025, 15);
    expect(t.betaPrime).toBeCloseTo(0.00025, 15);
  });

  it("independent rows: B_max = ⌊(τ'/3) / (9(Δ + g)/(4σ))⌋ and the concentration term 9 ln(4/β')/τ'²", () => {
    const n = 1_000_000;
    const { budget, concentration } = maxBudget({ n, model: INDEPENDENT }, GUARANTEE);
    expect(concentration).toBeCloseTo((9 * Math.log(16_000)) / 0.025 ** 2, 6); // 139,396.4
    const t = theorem2Parameters(GUARANTEE);
    expect(budget).toBe(Math.floor(0.025 / 3 / epsPerHoldoutAnswer(t.sigma, n)));
    expect(budget).toBe(3); // 4σnε/9 = 4 · 9.27245e-4 · 10⁶ · 0.0083333 / 9 = 3.434
  });

  it("is 0 when the holdout is smaller than the concentration term", () => {
    expect(maxBudget({ n: 100_000, model: INDEPENDENT }, GUARANTEE).budget).toBe(0);
  });
});

describe("B_max", () => {
  const budget = (n: number, model: CorrelationModel, tolerance = 0.2) => maxBudget({ n, model }, { ...GUARANTEE, tolerance }).budget;

  it("grows with n", () => {
    const values = [1e6, 2e6, 5e6, 2e7].map((n) => budget(n, INDEPENDENT));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values[3]).toBeGreaterThan(values[0]);
  });

  it("grows with τ", () => {
    const values = [0.2, 0.3, 0.5, 0.8].map((tau) => budget(2e6, INDEPENDENT, tau));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(values[3]).toBeGreaterThan(values[0]);
  });

  it("shrinks as correlation grows", () => {
    const values = [0.5, 0.6, 0.7, 0.9].map((p) => budget(1e7, markov(p), 0.5));
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(values[0]).toBeGreaterThan(values[3]);
    expect(budget(1e7, { kind: "groups", maxGroupSize: 4 }, 0.5)).toBeLessThan(budget(1e7, INDEPENDENT, 0.5));
  });

  it("the smallest τ for a budget supports it, and a slightly smaller τ does not", () => {
    const setting = { n: 2e6, model: INDEPENDENT };
    const tau = smallestTolerance(setting, GUARANTEE, 5)!;
    expect(maxBudget(setting, { ...GUARANTEE, tolerance: tau }).budget).toBeGreaterThanOrEqual(5);
    expect(maxBudget(setting, { ...GUARANTEE, tolerance: tau - 1e-4 }).budget).toBeLessThan(5);
  });

  it("requiredN is the n at which the budget becomes affordable", () => {
    const need = requiredN({ n: 1e6, model: INDEPENDENT }, GUARANTEE, 10);
    expect(maxBudget({ n: need, model: INDEPENDENT }, GUARANTEE).budget).toBeGreaterThanOrEqual(10);
    expect(maxBudget({ n: need - 3000, model: INDEPENDENT }, GUARANTEE).budget).toBeLessThan(10);
  });
});

describe("plans", () => {
  it("guarantee mode reports what holds in words", () => {
    const plan = planGuarantee({ n: 1_000_000, model: INDEPENDENT }, GUARANTEE);
    expect(plan.budget).toBe(3);
    expect(plan.guarantee.holds).toBe(true);
    expect(plan.epsBdp).toBeCloseTo(plan.epsDp, 15);
    expect(plan.epsDp).toBeLessThanOrEqual(0.025 / 3);
    expect(plan.guarantee.explanation).toContain("within 0.2 of the true score");
  });

  it("practical mode at Dwork et al.'s T = 0.04, σ = 0.01 has no formal guarantee on a small holdout", () => {
    const plan = planPractical({ n: 10_000, model: INDEPENDENT }, { sigma: 0.01, threshold: 0.04, budget: 100, beta: 0.05, maxQueries: 100 });
    // 100 holdout answers (9 units each) and up to 100 re-measurements (1 unit each).
    expect(plan.epsDp).toBeCloseTo(100 * epsPerHoldoutAnswer(0.01, 10_000) * (10 / 9), 12);
    expect(plan.guarantee.holds).toBe(false);
    expect(plan.guarantee.explanation).toMatch(/^No formal \(τ, β\) guarantee at these settings/);
  });

  it("practical mode recovers the guarantee of its own Theorem 2 parameters", () => {
    const t = theorem2Parameters(GUARANTEE);
    const setting = { n: 2e6, model: INDEPENDENT };
    const plan = planPractical(setting, { sigma: t.sigma, threshold: t.threshold, budget: 3, beta: 0.05, maxQueries: 100 });
    expect(plan.guarantee.tolerance).toBeCloseTo(0.2, 12);
    expect(plan.guarantee.split).toBeCloseTo(0.5, 12);
    expect(plan.guarantee.holds).toBe(true);
  });
});

describe("a Markov holdout (docs/mechanism.md §2.5)", () => {
  // P = [[0.9, 0.1], [0.1, 0.9]]: λ = 0.8, n_eff = n/9. Lemma 1 joins e^{2ε²n} (max-information, true n)
  // with 2e^{−2 n_eff τ'²} (concentration, effective rows). Substituting n_eff into the concentration
  // term alone (ε = τ'/3) leaves 2·e^{2τ'²n(1/9 − n_eff/n)} ≥ 2 for every n: no guarantee at all.
  const model = markov(0.9);
  const logLeading = (epsBdp: number, n: number, nEff: number, tauPrime: number) => 2 * epsBdp ** 2 * n + Math.log(2) - 2 * nEff * tauPrime ** 2;

  it("where it claims the guarantee, the explicit Lemma 1 bound is below β'", () => {
    const t = theorem2Parameters(GUARANTEE);
    const need = requiredN({ n: 1e6, model }, GUARANTEE, 1);
    for (const n of [need, 2 * need]) {
      const plan = planGuarantee({ n, model }, GUARANTEE);
      expect(plan.guarantee.holds, `n = ${n}`).toBe(true);
      // The whole mechanism's BDP level (forward map of its ε_DP) must make the bound small.
      expect(logLeading(plan.epsBdp, n, plan.nEff, t.tauPrime), `n = ${n}`).toBeLessThanOrEqual(Math.log(t.betaPrime));
    }
  });

  it("calibrates at ε = (τ'/3)·√(n_eff/n), not τ'/3", () => {
    const t = theorem2Parameters(GUARANTEE);
    expect(targetEpsBdp({ n: 9e6, model }, t.tauPrime).epsBdp).toBeCloseTo(t.tauPrime / 9, 9);
    expect(targetEpsBdp({ n: 9e6, model: INDEPENDENT }, t.tauPrime).epsBdp).toBe(t.tauPrime / 3);
    expect(targetEpsBdp({ n: 9e6, model: { kind: "groups", maxGroupSize: 9 } }, t.tauPrime).epsBdp).toBe(t.tauPrime / 3);
  });
});

describe("correlation models", () => {
  it("independent, groups and max-influence follow their lemmas", () => {
    expect(calibrateEpsDp(INDEPENDENT, 100, 0.3).value).toBe(0.3);
    expect(calibrateEpsDp({ kind: "groups", maxGroupSize: 4 }, 100, 0.3).value).toBeCloseTo(0.075, 15);
    expect(calibrateEpsBdp({ kind: "groups", maxGroupSize: 4 }, 100, 0.075).value).toBeCloseTo(0.3, 15);
    expect(calibrateEpsDp({ kind: "max-influence", bound: 0.05 }, 100, 0.3).value).toBeCloseTo(0.1, 15);
    expect(calibrateEpsBdp({ kind: "max-influence", bound: 0.05 }, 100, 0.1).value).toBeCloseTo(0.3, 15);
    expect(() => calibrateEpsDp({ kind: "max-influence", bound: 0.1 }, 100, 0.3)).toThrow("need epsilon > 4 × bound");
  });

  it("markov reports both methods and uses the better", () => {
    const r = calibrateEpsDp(markov(0.9), 100_000, 1);
    expect(r.byMethod.closedForm).not.toBeNull();
    expect(r.value).toBe(Math.max(r.byMethod.closedForm!, r.byMethod.exactQuilts!));
    const nonReversible: CorrelationModel = {
      kind: "markov",
      transition: [
        [0.1, 0.8, 0.1],
        [0.1, 0.1, 0.8],
        [0.8, 0.1, 0.1],
      ],
    };
    expect(calibrateEpsDp(nonReversible, 1000, 1).byMethod.closedForm).toBeNull();
  });

  it("several chains (one per group): the shortest constrains least, the min is taken", () => {
    const one = calibrateEpsDp({ ...markov(0.9), chains: [5] } as CorrelationModel, 5, 1).value;
    const long = calibrateEpsDp(markov(0.9), 1000, 1).value;
    const both = calibrateEpsDp({ ...markov(0.9), chains: [5, 1000] } as CorrelationModel, 1005, 1).value;
    expect(both).toBe(Math.min(one, long));
  });

  it("n_eff", () => {
    expect(effectiveSize(INDEPENDENT, 1000)).toBe(1000);
    expect(effectiveSize({ kind: "groups", maxGroupSize: 5 }, 1000)).toBe(200);
    expect(effectiveSize(markov(0.9), 900)).toBeCloseTo(100, 9);
  });
});
