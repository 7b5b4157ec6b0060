import { check } from "../mechanism/errors";
import { checkDistribution, checkTransitionMatrix, describeChain, effectiveSampleSize, longestOf } from "./chain";
import type { CorrelationModel } from "./models";

/**
 * The concentration step both proofs need (docs/mechanism.md §2.5, §4): for a query fixed before the
 * holdout is drawn, P[|Q(X) − E Q(X)| > t] ≤ 2e^{−2t²·N_c}. Which inequality gives it, and its size
 * N_c, depends on the pair (metric, correlation model); a pair no inequality covers has no guarantee.
 *
 * The metric is described by its bounded differences cᵢ (changing holdout row i moves Q by at most cᵢ)
 * through N = 1/Σᵢ cᵢ² (n for a mean of per-row values in [0, 1], n₊n₋/n for ROC AUC), and by whether Q
 * is a mean of per-row values (an additive functional Σᵢ f(Xᵢ)/n), which some inequalities need.
 *
 * - **Independent rows**: McDiarmid's inequality (Hoeffding's for a mean), N_c = N. For a mean the
 *   Chernoff–KL form holds too (Hoeffding 1963, Theorem 1): P[Q ≥ p + t] ≤ e^{−N·kl(p + t‖p)}, narrower
 *   away from p = ½ (score-bounds.ts uses it).
 * - **Groups** of at most k rows, independent across groups: McDiarmid over the groups, each moving Q
 *   by at most Σ_{i∈g} cᵢ, and (Σ_{i∈g} cᵢ)² ≤ k·Σ_{i∈g} cᵢ² (Cauchy–Schwarz), so N_c = N/k.
 * - **Markov chain(s)** (one per group, each with transition matrix P): the best of
 *   - Hoeffding's inequality for additive functionals of a stationary chain (Fan, Jiang & Sun 2021,
 *     JMLR 22(139), Theorem 1): N_c = n(1 − λ)/(1 + λ), λ the second singular value of
 *     D^{1/2}PD^{−1/2}. Only for a mean, and only when the chains start from π; independent chains
 *     multiply their moment bounds, so it holds for several chains of one P;
 *   - McDiarmid's inequality for Markov chains (Paulin 2015, Electron. J. Probab. 20(79),
 *     Corollary 2.11 with τ_min ≤ 9·t_mix, t_mix = t_mix(1/4)): 2·exp(−2t²/(9·t_mix·Σcᵢ²)), so
 *     N_c = N/(9·t_mix). It holds for any function with bounded differences (ROC AUC, a two-sample
 *     U-statistic, is not an additive functional) and any start, and for independent chains in a
 *     row, which form one time-inhomogeneous chain that mixes at least as fast;
 *   - the chains as groups (independent blocks of at most L rows, L the longest chain): N_c = N/L.
 * - **A max-influence bound** (Lemma 3) prices the correlation's privacy but gives no concentration
 *   inequality: no proof bounds a score's distance to the truth under it.
 */
export type Concentration = {
  /** N_c: P[|Q(X) − E Q(X)| > t] ≤ 2e^{−2t²·N_c} for every query fixed before the holdout is drawn */
  size: number;
  /** whether the Chernoff–KL form holds at size N_c (independent rows and a mean of per-row values) */
  kl: boolean;
  /** the inequality that gives N_c, in words with its source */
  inequality: string;
};

/** What the concentration step is computed for: n holdout rows, their model, and the metric's N and whether it is a mean. */
export type ConcentrationSetting = {
  n: number;
  model: CorrelationModel;
  /** N = 1/Σᵢ cᵢ² of the metric on the holdout (lib/metrics SplitShape.concentration); n when not given */
  concentration?: number;
  /** false for a metric that is not a mean of per-row values (ROC AUC); true when not given */
  additive?: boolean;
};

/** A pair (metric, model) that no inequality covers: why, and the models that would work. */
export type ConcentrationProblem = { problem: string };

/** The models whose concentration step holds for every metric Quiltboard offers (said where a pair has none). */
export const COVERED_MODELS = "independent rows, groups (a group column) or a Markov chain (a state column)";

// A plan asks for the same model's concentration many times (each bisection step): a chain's
// summary and mixing time are computed once per model object and setting.
const computed = new WeakMap<CorrelationModel, Map<string, Concentration | ConcentrationProblem>>();

/**
 * The concentration step for a metric on a holdout under its correlation model, or why none holds
 * (docs/mechanism.md §2.5). Takes the best valid inequality for the pair.
 */
export function concentrationOf(setting: ConcentrationSetting): Concentration | ConcentrationProblem {
  let byModel = computed.get(setting.model);
  if (!byModel) computed.set(setting.model, (byModel = new Map()));
  const key = `${setting.n}:${setting.concentration}:${setting.additive}`;
  let value = byModel.get(key);
  if (!value) byModel.set(key, (value = concentrationFor(setting)));
  return value;
}

function concentrationFor(setting: ConcentrationSetting): Concentration | ConcentrationProblem {
  const { n, model } = setting;
  check(Number.isInteger(n) && n >= 1, `n must be a whole number ≥ 1, got ${n}`);
  const metricSize = setting.concentration ?? n;
  check(metricSize > 0 && metricSize <= n * (1 + 1e-9), `the metric's concentration size must be in (0, n], got ${metricSize}`);
  const additive = setting.additive ?? true;
  switch (model.kind) {
    case "independent":
      return { size: metricSize, kl: additive, inequality: additive ? "Hoeffding's inequality (independent rows)" : "McDiarmid's inequality (independent rows)" };
    case "groups":
      return { size: metricSize / model.maxGroupSize, kl: false, inequality: `McDiarmid's inequality over independent groups of at most ${model.maxGroupSize} rows` };
    case "markov":
      return markovConcentration(model, n, metricSize, additive);
    case "max-influence":
      return {
        problem: `a bound on each row's influence prices the correlation in privacy (Lemma 3) but gives no concentration inequality, so no proof bounds how far a score can be from the truth; the models that give one are ${COVERED_MODELS}`,
      };
  }
}

/** True when `value` is a Concentration (the pair is covered). */
export function isCovered(value: Concentration | ConcentrationProblem): value is Concentration {
  return "size" in value;
}

function markovConcentration(model: Extract<CorrelationModel, { kind: "markov" }>, n: number, metricSize: number, additive: boolean): Concentration {
  const transition = checkTransitionMatrix(model.transition);
  const chain = describeChain(transition);
  const stationaryStart = !Array.isArray(model.initial) || Math.max(...checkDistribution(model.initial, transition.size).map((q, i) => Math.abs(q - chain.stationary[i]))) <= 1e-9;
  const longest = model.chains ? longestOf(model.chains) : n;
  const candidates: Concentration[] = [{ size: metricSize / longest, kl: false, inequality: `McDiarmid's inequality over independent chains of at most ${longest} rows` }];
  if (chain.mixingTime !== null) {
    candidates.push({
      size: metricSize / (9 * chain.mixingTime),
      kl: false,
      inequality: `McDiarmid's inequality for Markov chains (Paulin 2015, Cor. 2.11; mixing time ${chain.mixingTime})`,
    });
  }
  if (additive && stationaryStart) {
    candidates.push({
      size: effectiveSampleSize(n, chain.lambda),
      kl: false,
      inequality: `Hoeffding's inequality for stationary Markov chains (Fan, Jiang & Sun 2021; λ = ${Number(chain.lambda.toPrecision(3))})`,
    });
  }
  return candidates.reduce((best, c) => (c.size > best.size ? c : best));
}
