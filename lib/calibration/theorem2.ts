import { epsDpForBudget } from "../mechanism/accounting";
import { check } from "../mechanism/errors";
import { type Concentration, concentrationOf, isCovered } from "./concentration";
import { type CorrelationModel, calibrateEpsDp } from "./models";

/**
 * Zhao 2017, Theorem 2 (docs/mechanism.md §2.4), the first of the two proofs the planner weighs.
 * From tolerance τ, failure probability β, maximum queries per team m and split constant c ∈ (0, 1):
 *   σ = (1 − c) τ / (12 ln(4m/β)),   T = (1 + c) τ / 2,   τ' = (1 − c) τ / 4,   β' = β / (2m),
 *   n_#(B) = max{ 9 ln(4/β') / τ'²,  9 B / (4 σ ε_DP(ε*)) },
 *   B_max = ⌊4 σ n ε_DP(ε*) / 9⌋   when n_eff ≥ 9 ln(4/β') / τ'².
 * ε_DP(·) is the correlation model's inverse map (models.ts) and ε* the BDP level Lemma 1 needs
 * (targetEpsBdp below). With the grid of docs/mechanism.md §2.3 the accounting sensitivity is
 * Δ_Q + g ≤ (1 + 1/1024)/n rather than 1/n, so n_# carries the factor (1 + 1/1024).
 */
export type GuaranteeInput = { tolerance: number; beta: number; maxQueries: number; split?: number };

/**
 * The holdout a plan is for: n rows and their correlation model, and the metric's sensitivity Δ,
 * concentration size N and whether it is a mean of per-row values (docs/mechanism.md §4; 1/n, n and
 * a mean when not given).
 */
export type Setting = { n: number; model: CorrelationModel; sensitivity?: number; concentration?: number; additive?: boolean };

/** Δ, the most one holdout row moves a query's value: the metric's, or 1/n for a mean. */
export function deltaOf(setting: Setting): number {
  return setting.sensitivity ?? 1 / setting.n;
}

/**
 * The concentration step for this metric and model (concentration.ts): the inequality and its size
 * N_c, or null when no inequality covers the pair (then neither proof gives a guarantee).
 */
export function concentrationFor(setting: Setting): Concentration | null {
  const c = concentrationOf(setting);
  return isCovered(c) ? c : null;
}

/** σ, T, τ', β' of Theorem 2 for (τ, β, m, c). */
export function theorem2Parameters(input: GuaranteeInput) {
  const { tolerance: tau, beta, maxQueries: m } = input;
  const c = input.split ?? 0.5;
  check(Number.isFinite(tau) && tau > 0 && tau <= 1, `tolerance must be in (0, 1], got ${tau}`);
  check(Number.isFinite(beta) && beta > 0 && beta < 1, `beta must be in (0, 1), got ${beta}`);
  check(Number.isInteger(m) && m >= 1, `maxQueries must be a whole number ≥ 1, got ${m}`);
  check(Number.isFinite(c) && c > 0 && c < 1, `split must be in (0, 1), got ${c}`);
  return {
    sigma: ((1 - c) * tau) / (12 * Math.log((4 * m) / beta)),
    threshold: ((1 + c) * tau) / 2,
    tauPrime: ((1 - c) * tau) / 4,
    betaPrime: beta / (2 * m),
    split: c,
  };
}

/** The first term of n_#: 9 ln(4/β') / τ'² (Zhao 2017, eq. 8; Lemma 1's concentration). */
export function concentrationN(tauPrime: number, betaPrime: number): number {
  return (9 * Math.log(4 / betaPrime)) / tauPrime ** 2;
}

/**
 * The BDP level ε* at which Lemma 1 gives the guarantee (docs/mechanism.md §2.5), and N_c. Lemma 1
 * joins a max-information bound that grows like e^{2ε²n} in the true n with a concentration bound
 * 2e^{−2 N_c τ'²} (concentration.ts) that counts fewer rows when they are correlated or the metric is
 * not a mean. With ε* = (τ'/3)·√(N_c/n), 2ε*²n = 2τ'² N_c / 9 and the independent proof runs with N_c
 * rows. (With τ'/3 alone the product stays above 1 for every n once N_c/n ≤ 1/9.) For groups, each
 * group is one record (group privacy, ε_DP = ε/k, n/k records), which already accounts for the
 * correlation: ε* = (τ'/3)·√(N/n) with the metric's own N. Null when no inequality covers the pair.
 */
export function targetEpsBdp(setting: Setting, tauPrime: number): { epsBdp: number; nEff: number } | null {
  const concentration = concentrationFor(setting);
  if (!concentration) return null;
  const counted = setting.model.kind === "groups" ? (setting.concentration ?? setting.n) : concentration.size;
  return { epsBdp: (tauPrime / 3) * Math.sqrt(counted / setting.n), nEff: concentration.size };
}

/** Largest budget the holdout supports for (τ, β, m, c); 0 when even one holdout answer is unsafe. */
export function maxBudget(setting: Setting, input: GuaranteeInput): { budget: number; epsDpAtTau: number; nEff: number; concentration: number; exhaustive: boolean } {
  const t = theorem2Parameters(input);
  const target = targetEpsBdp(setting, t.tauPrime);
  if (!target) return { budget: 0, epsDpAtTau: 0, nEff: 0, concentration: concentrationN(t.tauPrime, t.betaPrime), exhaustive: true };
  const { epsBdp, nEff } = target;
  const calibration = calibrateEpsDp(setting.model, setting.n, epsBdp);
  const concentration = concentrationN(t.tauPrime, t.betaPrime);
  const fromPrivacy = Math.floor(calibration.value / epsDpForBudget(1, t.sigma, deltaOf(setting)));
  const budget = nEff >= concentration ? Math.max(0, Math.min(fromPrivacy, input.maxQueries)) : 0;
  return { budget, epsDpAtTau: calibration.value, nEff, concentration, exhaustive: calibration.exhaustive };
}

/** n_#(B, σ, τ', β') of Theorem 2: the holdout size (in effective rows for the first term) B needs; null where no inequality covers the pair. */
export function requiredN(setting: Setting, input: GuaranteeInput, budget: number): number | null {
  const t = theorem2Parameters(input);
  const target = targetEpsBdp(setting, t.tauPrime);
  if (!target) return null;
  const { epsBdp, nEff } = target;
  const epsDpAtTau = calibrateEpsDp(setting.model, setting.n, epsBdp).value;
  // The concentration term counts effective rows; scale it back to rows by n / n_eff.
  const concentration = concentrationN(t.tauPrime, t.betaPrime) * (setting.n / nEff);
  return Math.ceil(Math.max(concentration, (9 * budget * (1 + 1 / 1024)) / (4 * t.sigma * epsDpAtTau)));
}

/**
 * The smallest tolerance τ at which the holdout supports `budget` holdout answers (bisection on τ;
 * B_max grows with τ). Null if even τ = 1 does not.
 */
export function smallestTolerance(setting: Setting, input: Omit<GuaranteeInput, "tolerance">, budget: number): number | null {
  check(Number.isInteger(budget) && budget >= 1, `budget must be a whole number ≥ 1, got ${budget}`);
  const supports = (tau: number) => maxBudget(setting, { ...input, tolerance: tau }).budget >= budget;
  if (!supports(1)) return null;
  let lo = 0;
  let hi = 1;
  while (hi - lo > 1e-6) {
    const mid = (lo + hi) / 2;
    if (supports(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
