import { describe, expect, it } from "vitest";
import { epsPerHoldoutAnswer } from "@/lib/mechanism/accounting";
import { calibrateEpsBdp, calibrateEpsDp, effectiveSize, type CorrelationModel } from "@/lib/calibration/models";
import { deviationBound, descriptionLengthBound, lnPrefixTranscripts } from "@/lib/calibration/description-length";
import { planGuarantee, planPractical } from "@/lib/calibration/planner";
import { maxBudget, requiredN, smallestTolerance, targetEpsBdp, theorem2Parameters } from "@/lib/calibration/theorem2";

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
    expect(budget).toBe(Math.floor(0.025 / 3 / epsPerHoldoutAnswer(t.sigma, 1 / n)));
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
    const need = requiredN({ n: 1e6, model: INDEPENDENT }, GUARANTEE, 10)!;
    expect(maxBudget({ n: need, model: INDEPENDENT }, GUARANTEE).budget).toBeGreaterThanOrEqual(10);
    expect(maxBudget({ n: need - 3000, model: INDEPENDENT }, GUARANTEE).budget).toBeLessThan(10);
  });
});

describe("plans", () => {
  it("guarantee mode: at n = 10⁶ both proofs hold; the count allows far more than Theorem 2's 3 and is used", () => {
    const plan = planGuarantee({ n: 1_000_000, model: INDEPENDENT }, GUARANTEE);
    expect(maxBudget({ n: 1_000_000, model: INDEPENDENT }, GUARANTEE).budget).toBe(3);
    expect(plan.guarantee.proof).toBe("description-length");
    expect(plan.budget).toBe(100); // every one of the m = 100 queries may be a holdout answer within τ = 0.2
    expect(plan.guarantee.holds).toBe(true);
    expect(plan.guarantee.tolerance!).toBeLessThanOrEqual(0.2);
    expect(plan.guarantee.explanation).toContain("For a team acting on its own answers");
  });

  it("guarantee mode at n = 10⁵ independent rows, τ = 0.15, β = 0.05, m = 300: Theorem 2 gives nothing, the count a budget of at least 10", () => {
    const input = { tolerance: 0.15, beta: 0.05, maxQueries: 300 };
    expect(maxBudget({ n: 100_000, model: INDEPENDENT }, input).budget).toBe(0);
    const plan = planGuarantee({ n: 100_000, model: INDEPENDENT }, input);
    expect(plan.guarantee.proof).toBe("description-length");
    expect(plan.budget).toBeGreaterThanOrEqual(10);
    expect(plan.guarantee.tolerance!).toBeLessThanOrEqual(0.15);
    // The claim is never tighter than the proof: the reported tolerance is the bound's own.
    const settings = { sensitivity: 1e-5, nEff: 100_000, queries: 300, decimals: plan.answerDecimals, sigma: plan.sigma, threshold: plan.threshold, beta: 0.05 };
    const bound = descriptionLengthBound({ ...settings, budget: plan.budget });
    expect(plan.guarantee.tolerance).toBe(bound.tolerance);
    // and one more holdout answer would break τ
    if (plan.budget < 300) expect(descriptionLengthBound({ ...settings, budget: plan.budget + 1 }).tolerance).toBeGreaterThan(0.15);
  });

  it("guarantee mode with no proof reports budget 0 and says why", () => {
    const plan = planGuarantee({ n: 200, model: INDEPENDENT }, { tolerance: 0.02, beta: 0.05, maxQueries: 100 });
    expect(plan.budget).toBe(0);
    expect(plan.guarantee.holds).toBe(false);
    expect(plan.guarantee.proof).toBeNull();
    expect(plan.guarantee.explanation).toMatch(/^No formal guarantee: the budget is 0/);
  });

  it("practical mode at Dwork et al.'s T = 0.04, σ = 0.01: ε_DP = 9B(Δ + g)/(4σ), Theorem 2 does not hold, the count gives a tolerance", () => {
    const plan = planPractical({ n: 10_000, model: INDEPENDENT }, { sigma: 0.01, threshold: 0.04, budget: 20, beta: 0.05, maxQueries: 100 });
    expect(plan.epsDp).toBeCloseTo(20 * epsPerHoldoutAnswer(0.01, 1 / 10_000), 12);
    expect(plan.guarantee.byProof.bdp.holds).toBe(false);
    expect(plan.guarantee.proof).toBe("description-length");
    const dl = plan.guarantee.byProof.descriptionLength!;
    expect(plan.guarantee.tolerance).toBe(dl.tolerance);
    // a public answer is within τ₁ + T + the threshold noises; a holdout answer within τ₁ + the answer noise
    expect(dl.publicAnswer).toBeGreaterThan(dl.deviation + 0.04);
    // |Lap(4σ)| beyond 0.04 ln(1200) at β/3 over 20 answers, plus half the release step 0.01 (σ = 0.01: 2 decimals)
    expect(dl.holdoutAnswer - dl.deviation).toBeCloseTo(0.04 * Math.log(1200) + 0.005, 3);
    // With 100 holdout answers the noise and the count pass half the range: no guarantee worth the name.
    const loose = planPractical({ n: 10_000, model: INDEPENDENT }, { sigma: 0.01, threshold: 0.04, budget: 100, beta: 0.05, maxQueries: 100 });
    expect([loose.guarantee.holds, loose.guarantee.byProof.descriptionLength!.tolerance > 0.5]).toEqual([false, true]);
  });

  it("practical mode recovers the guarantee of its own Theorem 2 parameters", () => {
    const t = theorem2Parameters(GUARANTEE);
    const setting = { n: 2e6, model: INDEPENDENT };
    const plan = planPractical(setting, { sigma: t.sigma, threshold: t.threshold, budget: 3, beta: 0.05, maxQueries: 100 });
    expect(plan.guarantee.byProof.bdp.tolerance).toBeCloseTo(0.2, 12);
    expect(plan.guarantee.split).toBeCloseTo(0.5, 12);
    expect(plan.guarantee.byProof.bdp.holds).toBe(true);
    // the tighter of the two is reported
    expect(plan.guarantee.tolerance).toBe(Math.min(0.2 + 0 * t.sigma, plan.guarantee.byProof.descriptionLength!.tolerance, plan.guarantee.byProof.bdp.tolerance!));
  });

  it("shows what honest teams live with: the expected charges at these settings and the recommended ones", () => {
    const plan = planPractical({ n: 10_000, publicRows: 10_000, model: INDEPENDENT }, { sigma: 0.01, threshold: 0.04, budget: 20, beta: 0.05, maxQueries: 300 });
    // σ = T/4 (the old demo): about 16.5 charges over 300 queries from the noise alone, more with the gap
    expect(plan.honest.expectedCharges).toBeGreaterThan(16.5);
    expect(plan.honest.gapSd).toBeCloseTo(Math.sqrt(0.25 / 10_000 + 0.25 / 10_000), 15);
    expect(plan.honest.recommended.expectedCharges).toBeLessThan(0.1);
    expect(plan.honest.recommended.threshold / plan.honest.recommended.sigma).toBeGreaterThanOrEqual(32);
    expect(plan.honest.recommended.threshold / plan.honest.recommended.sigma).toBeLessThan(33);
  });

  it("a Markov chain stated to start away from its stationary distribution counts Paulin's n/(9·t_mix), not Fan, Jiang & Sun's n(1 − λ)/(1 + λ)", () => {
    const practical = { sigma: 0.0005, threshold: 0.016, budget: 20, beta: 0.05, maxQueries: 300 };
    const away = planPractical({ n: 1e6, model: { ...markov(0.9), initial: [1, 0] } as CorrelationModel }, practical);
    const stationary = planPractical({ n: 1e6, model: { ...markov(0.9), initial: [0.5, 0.5] } as CorrelationModel }, practical);
    const lnCount = lnPrefixTranscripts({ queries: 300, holdoutAnswers: 20, values: 10 ** away.answerDecimals + 1 });
    // t_mix = 4 and λ = 0.8 for p = 0.9: n/36 and n/9
    expect(away.guarantee.byProof.descriptionLength!.deviation).toBeCloseTo(deviationBound(lnCount, 1e6 / 36, 0.05 / 3), 12);
    expect(stationary.guarantee.byProof.descriptionLength!.deviation).toBeCloseTo(deviationBound(lnCount, 1e6 / 9, 0.05 / 3), 6);
  });
});

describe("the competition-wide figure (docs/mechanism.md §2.7)", () => {
  const practical = { sigma: 0.0005, threshold: 0.016, budget: 20, beta: 0.05, maxQueries: 300 };
  it("without a cap there is none; with a cap it is the count over every team's queries", () => {
    const none = planPractical({ n: 1e6, model: INDEPENDENT, teams: 1000 }, practical);
    expect(none.competition.cap).toBeNull();
    expect(none.competition.holds).toBe(false);
    expect(none.competition.explanation).toMatch(/^No competition-wide guarantee: without a cap/);
    const capped = planPractical({ n: 1e6, model: INDEPENDENT, teams: 1000, holdoutCap: 2000 }, practical);
    expect(capped.competition.holds).toBe(true);
    // τ₁ = 0.114 at n = 10⁶, M = 300,000, H = 2,000, R = 1001 (docs/mechanism.md §2.7); the tolerance adds T and the noises
    const deviation = deviationBound(lnPrefixTranscripts({ queries: 300_000, holdoutAnswers: 2000, values: 1001 }), 1e6, 0.05 / 3);
    expect(deviation).toBeCloseTo(0.1137, 3);
    expect(capped.competition.tolerance!).toBeGreaterThan(deviation + practical.threshold);
    expect(capped.competition.explanation).toMatch(/^For anyone, whatever they read here and however many accounts they hold/);
    expect(capped.competition.curve.map((p) => p.tolerance)).toEqual([...capped.competition.curve.map((p) => p.tolerance)].sort((a, b) => a - b));
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
    const need = requiredN({ n: 1e6, model }, GUARANTEE, 1)!;
    for (const n of [need, 2 * need]) {
      const budget = maxBudget({ n, model }, GUARANTEE).budget;
      const plan = planPractical({ n, model }, { sigma: t.sigma, threshold: t.threshold, budget, beta: GUARANTEE.beta, maxQueries: GUARANTEE.maxQueries });
      expect(plan.guarantee.byProof.bdp.holds, `n = ${n}`).toBe(true);
      // The whole mechanism's BDP level (forward map of its ε_DP) must make the bound small.
      expect(logLeading(plan.epsBdp, n, plan.nEff, t.tauPrime), `n = ${n}`).toBeLessThanOrEqual(Math.log(t.betaPrime));
    }
  });

  it("calibrates at ε = (τ'/3)·√(n_eff/n), not τ'/3", () => {
    const t = theorem2Parameters(GUARANTEE);
    expect(targetEpsBdp({ n: 9e6, model }, t.tauPrime)!.epsBdp).toBeCloseTo(t.tauPrime / 9, 9);
    expect(targetEpsBdp({ n: 9e6, model: INDEPENDENT }, t.tauPrime)!.epsBdp).toBe(t.tauPrime / 3);
    expect(targetEpsBdp({ n: 9e6, model: { kind: "groups", maxGroupSize: 9 } }, t.tauPrime)!.epsBdp).toBe(t.tauPrime / 3);
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
