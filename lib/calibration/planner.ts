import { epsDpForBudget, UNITS } from "../mechanism/accounting";
import { check } from "../mechanism/errors";
import { type ByMethod, type CorrelationModel, calibrateEpsBdp, calibrateEpsDp, effectiveSize } from "./models";

/**
 * The Theorem 2 planner (Zhao 2017, Theorem 2; docs/mechanism.md §2.4). Organizer inputs: tolerance
 * τ, failure probability β, maximum queries per team m and split constant c ∈ (0, 1). Then
 *   σ = (1 − c) τ / (12 ln(4m/β)),   T = (1 + c) τ / 2,   τ' = (1 − c) τ / 4,   β' = β / (2m),
 *   n_#(B) = max{ 9 ln(4/β') / τ'²,  10 B / (4 σ ε_DP(ε*)) },
 *   B_max = ⌊4 σ n ε_DP(ε*) / 10⌋   when n_eff ≥ 9 ln(4/β') / τ'².
 * ε_DP(·) is the correlation model's inverse map (models.ts) and ε* the BDP level Lemma 1 needs
 * (targetEpsBdp below). A team's B holdout answers cost 9B units and its at most B re-measured
 * leaderboard scores B more (accounting.ts), hence 10 where Theorem 2 has 9. With the grid of
 * docs/mechanism.md §2.3 the accounting sensitivity is Δ_Q + g ≤ (1 + 1/1024)/n rather than 1/n, so
 * n_# carries the factor (1 + 1/1024).
 */
export type GuaranteeInput = { tolerance: number; beta: number; maxQueries: number; split?: number };
export type PracticalInput = { sigma: number; threshold: number; budget: number };

export type Guarantee = {
  holds: boolean;
  /** n_# for this budget: rows the guarantee needs (counting n_eff for the concentration term); null when no τ matches */
  requiredN: number | null;
  tolerance: number | null;
  beta: number;
  maxQueries: number;
  split: number | null;
  /** plain words for the organizer */
  explanation: string;
};

export type Plan = {
  sigma: number;
  threshold: number;
  budget: number;
  /** ε_DP of the whole mechanism for one team: 10 B (Δ_Q + g) / (4σ) (B holdout answers and B re-measurements) */
  epsDp: number;
  /** the BDP level that ε_DP buys under the correlation model (forward map) */
  epsBdp: number;
  byMethod: ByMethod;
  /** false when a quilt search stopped at its work guard: the numbers are valid but conservative */
  exhaustive: boolean;
  nEff: number;
  guarantee: Guarantee;
};

type Setting = { n: number; model: CorrelationModel };

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
 * The BDP level ε* at which Lemma 1 gives the guarantee (docs/mechanism.md §2.5). Lemma 1 joins a
 * max-information bound that grows like e^{2ε²n} in the true n with a concentration bound
 * 2e^{−2 n_eff τ'²} that only counts effective rows. For independent rows and for groups (each group
 * one record: group privacy ε_DP = ε/k, n_eff = n/k records) ε* = τ'/3. For a Markov chain or a
 * max-influence bound ε* = (τ'/3)·√(n_eff/n): then 2ε*²n = 2τ'² n_eff / 9 and the independent
 * proof runs with n_eff rows. (With τ'/3 alone the product stays above 1 for every n once
 * n_eff/n ≤ 1/9.)
 */
export function targetEpsBdp(setting: Setting, tauPrime: number): { epsBdp: number; nEff: number } {
  const nEff = effectiveSize(setting.model, setting.n);
  const shrink = setting.model.kind === "markov" || setting.model.kind === "max-influence" ? Math.sqrt(nEff / setting.n) : 1;
  return { epsBdp: (tauPrime / 3) * shrink, nEff };
}

/** Largest budget the holdout supports for (τ, β, m, c); 0 when even one holdout answer is unsafe. */
export function maxBudget(setting: Setting, input: GuaranteeInput): { budget: number; epsDpAtTau: number; nEff: number; concentration: number; exhaustive: boolean } {
  const t = theorem2Parameters(input);
  const { epsBdp, nEff } = targetEpsBdp(setting, t.tauPrime);
  const calibration = calibrateEpsDp(setting.model, setting.n, epsBdp);
  const concentration = concentrationN(t.tauPrime, t.betaPrime);
  const fromPrivacy = Math.floor(calibration.value / epsDpForBudget(1, t.sigma, setting.n));
  const budget = nEff >= concentration ? Math.max(0, Math.min(fromPrivacy, input.maxQueries)) : 0;
  return { budget, epsDpAtTau: calibration.value, nEff, concentration, exhaustive: calibration.exhaustive };
}

/** n_#(B, σ, τ', β') of Theorem 2: the holdout size (in effective rows for the first term) B needs. */
export function requiredN(setting: Setting, input: GuaranteeInput, budget: number): number {
  const t = theorem2Parameters(input);
  const { epsBdp, nEff } = targetEpsBdp(setting, t.tauPrime);
  const epsDpAtTau = calibrateEpsDp(setting.model, setting.n, epsBdp).value;
  // The concentration term counts effective rows; scale it back to rows by n / n_eff.
  const concentration = concentrationN(t.tauPrime, t.betaPrime) * (setting.n / nEff);
  const units = UNITS.epoch + UNITS.answer + UNITS.remeasure;
  return Math.ceil(Math.max(concentration, (units * budget * (1 + 1 / 1024)) / (4 * t.sigma * epsDpAtTau)));
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

/** Guarantee mode: σ, T and B_max from (τ, β, m, c), with what they cost and buy. */
export function planGuarantee(setting: Setting, input: GuaranteeInput): Plan {
  const t = theorem2Parameters(input);
  const { budget, nEff, concentration, exhaustive } = maxBudget(setting, input);
  const holds = budget >= 1;
  const reason =
    nEff < concentration
      ? `the holdout has ${fmt(nEff)} effective rows but the tolerance needs ${fmt(concentration)}`
      : `the holdout cannot afford a single holdout answer at this tolerance`;
  return describe(
    setting,
    { sigma: t.sigma, threshold: t.threshold, budget },
    {
      holds,
      requiredN: requiredN(setting, input, Math.max(1, budget)),
      tolerance: input.tolerance,
      beta: input.beta,
      maxQueries: input.maxQueries,
      split: t.split,
      explanation: holds
        ? `With probability at least ${fmt(1 - input.beta)}, every answer a team gets before its budget of ${budget} runs out is within ${fmt(input.tolerance)} of the true score, for up to ${input.maxQueries} submissions per team.`
        : `No formal guarantee: ${reason}. Raise the tolerance or the failure probability, or lower the number of submissions.`,
    },
    exhaustive,
  );
}

/**
 * Practical mode (docs/mechanism.md §2.4): σ, T and B₀ set directly. Reports ε_DP, ε_BDP and whether some
 * Theorem 2 setting matches: σ and T fix (1 − c)τ = 12 σ ln(4m/β) and (1 + c)τ = 2T, so
 * τ = 6 σ ln(4m/β) + T and c = (2T − A)/(2T + A) with A = 12 σ ln(4m/β); it holds when c ∈ (0, 1),
 * τ ≤ 1 and n ≥ n_#(B₀).
 */
export function planPractical(setting: Setting, input: PracticalInput & { beta: number; maxQueries: number }): Plan {
  const { sigma, threshold, budget, beta, maxQueries } = input;
  check(Number.isFinite(sigma) && sigma > 0, `sigma must be a positive number, got ${sigma}`);
  check(Number.isFinite(threshold) && threshold > 0, `threshold must be a positive number, got ${threshold}`);
  check(Number.isInteger(budget) && budget >= 1, `budget must be a whole number ≥ 1, got ${budget}`);
  const a = 12 * sigma * Math.log((4 * maxQueries) / beta);
  const tau = a / 2 + threshold;
  const split = (2 * threshold - a) / (2 * threshold + a);
  let guarantee: Guarantee;
  if (split <= 0 || tau > 1) {
    guarantee = {
      holds: false,
      requiredN: null,
      tolerance: null,
      beta,
      maxQueries,
      split: null,
      explanation: `No formal (τ, β) guarantee at these settings: the threshold ${fmt(threshold)} is too small for the noise σ = ${fmt(sigma)} (Theorem 2 needs T > 6σ ln(4m/β) = ${fmt(a / 2)}).`,
    };
  } else {
    const g = { tolerance: tau, beta, maxQueries, split };
    const need = requiredN(setting, g, budget);
    const holds = setting.n >= need && budget <= maxBudget(setting, g).budget;
    guarantee = {
      holds,
      requiredN: need,
      tolerance: tau,
      beta,
      maxQueries,
      split,
      explanation: holds
        ? `These settings match Theorem 2 with tolerance ${fmt(tau)}: with probability at least ${fmt(1 - beta)}, answers stay within ${fmt(tau)} of the true score.`
        : `No formal (τ, β) guarantee at these settings: a budget of ${budget} at tolerance ${fmt(tau)} needs ${fmt(need)} holdout rows, this holdout has ${setting.n}.`,
    };
  }
  return describe(setting, { sigma, threshold, budget }, guarantee);
}

function describe(setting: Setting, p: PracticalInput, guarantee: Guarantee, exhaustive = true): Plan {
  const epsDp = epsDpForBudget(p.budget, p.sigma, setting.n);
  const forward = p.budget > 0 ? calibrateEpsBdp(setting.model, setting.n, epsDp) : { value: 0, byMethod: {}, exhaustive: true };
  return { ...p, epsDp, epsBdp: forward.value, byMethod: forward.byMethod, exhaustive: exhaustive && forward.exhaustive, nEff: effectiveSize(setting.model, setting.n), guarantee };
}

function fmt(x: number): string {
  return Number.isFinite(x) ? Number(x.toPrecision(4)).toString() : "∞";
}
