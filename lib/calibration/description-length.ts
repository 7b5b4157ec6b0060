import { check } from "../mechanism/errors";
import { discreteLaplaceQuantile, gridFor } from "../mechanism/noise";

/**
 * The second proof of docs/mechanism.md §2.7: description length (Dwork, Feldman, Hardt, Pitassi,
 * Reingold, Roth, NIPS 2015, Theorem 6, with the prefix counting of their Theorem 10). A team's
 * transcript over m queries with at most B holdout answers is fixed by which queries were answered
 * from the holdout and by those answers' values, each one of R values. Query i depends only on the
 * answers before it, so a union bound over the (query index, prefix transcript) pairs covers every
 * query the analyst can form: with ℓ_i = Σ_{f ≤ min(i−1, B)} C(i−1, f) R^f,
 *   P[∃i: |Q_i(X) − Q_i(P)| > τ₁] ≤ Σ_i ℓ_i · 2 e^{−2 τ₁² n_eff}          (Hoeffding, or McDiarmid, for a fixed query)
 * so every query's holdout mean is within τ₁ of the truth with probability ≥ 1 − β_dev when
 *   2 τ₁² n_eff ≥ ln Σ_i ℓ_i + ln(2/β_dev).
 * Public answers Q(D) are functions of the public split and the query, both independent of the
 * holdout, and add nothing to the count. The bound needs no privacy: it holds whatever σ is, so σ and
 * T are chosen for the board and for honest teams (honest.ts), not for the proof.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 coefficients; relative error below 1e-13). */
export function lnGamma(x: number): number {
  check(Number.isFinite(x) && x > 0, `lnGamma needs x > 0, got ${x}`);
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  const z = x - 1;
  let a = c[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** ln C(n, k) for whole numbers 0 ≤ k ≤ n. */
export function lnChoose(n: number, k: number): number {
  check(Number.isInteger(n) && Number.isInteger(k) && k >= 0 && k <= n, `lnChoose needs whole numbers 0 ≤ k ≤ n, got n = ${n}, k = ${k}`);
  return lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1);
}

/** ln Σ e^{x_j}, without overflow. */
function logSumExp(values: number[]): number {
  let top = -Infinity;
  for (const v of values) if (v > top) top = v;
  if (top === -Infinity) return -Infinity;
  let sum = 0;
  for (const v of values) sum += Math.exp(v - top);
  return top + Math.log(sum);
}

/** ln ℓ_i = ln Σ_{f ≤ min(i−1, B)} C(i−1, f) R^f: the prefix transcripts before query i. */
function lnPrefixes(i: number, budget: number, lnR: number): number {
  // ln(C(i−1, f) R^f) from the term before: C(i−1, f) = C(i−1, f−1) · (i − f)/f.
  const terms = [0];
  for (let f = 1; f <= Math.min(i - 1, budget); f++) terms.push(terms[f - 1] + Math.log((i - f) / f) + lnR);
  return logSumExp(terms);
}

/** Sums of more terms than this use the bound Σ_i ℓ_i ≤ m · ℓ_m (ℓ_i grows with i). */
const EXACT_TERMS = 1_000_000;

/**
 * ln Σ_{i=1}^{m} ℓ_i: the number of (query index, prefix transcript) pairs of a transcript of m queries
 * with at most B holdout answers of R values each (docs/mechanism.md §2.7, the tightest valid form).
 * Exact while m·(B + 1) ≤ 10⁶; beyond, the valid upper bound ln m + ln ℓ_m (ℓ_i grows with i), which
 * is looser by at most ln m in a count that is then in the thousands.
 * @param queries m ≥ 1; @param holdoutAnswers B ≥ 0; @param values R ≥ 2
 */
export function lnPrefixTranscripts({ queries, holdoutAnswers, values }: { queries: number; holdoutAnswers: number; values: number }): number {
  check(Number.isInteger(queries) && queries >= 1, `queries must be a whole number ≥ 1, got ${queries}`);
  check(Number.isInteger(holdoutAnswers) && holdoutAnswers >= 0, `holdout answers must be a whole number ≥ 0, got ${holdoutAnswers}`);
  check(Number.isInteger(values) && values >= 2, `values must be a whole number ≥ 2, got ${values}`);
  const lnR = Math.log(values);
  if (queries * (Math.min(queries, holdoutAnswers) + 1) > EXACT_TERMS) return Math.log(queries) + lnPrefixes(queries, holdoutAnswers, lnR);
  const perQuery: number[] = [];
  for (let i = 1; i <= queries; i++) perQuery.push(lnPrefixes(i, holdoutAnswers, lnR));
  return logSumExp(perQuery);
}

/**
 * τ₁, the deviation every query's holdout mean stays within (probability ≥ 1 − β_dev):
 *   τ₁ = √((ln Σ_i ℓ_i + ln(2/β_dev)) / (2 n_eff)).
 * n_eff is the concentration's effective sample size (docs/mechanism.md §2.5): n for independent rows,
 * n/k for groups of at most k, n(1 − λ)/(1 + λ) for a stationary Markov chain.
 */
export function deviationBound(lnCount: number, nEff: number, betaDev: number): number {
  check(nEff > 0, `the effective sample size must be positive, got ${nEff}`);
  check(betaDev > 0 && betaDev < 1, `β_dev must be in (0, 1), got ${betaDev}`);
  return Math.sqrt((lnCount + Math.log(2 / betaDev)) / (2 * nEff));
}

/** The decimals a holdout answer is released with (thresholdout.ts): R = 10^d + 1 values in [0, 1]. */
export function answerValues(decimals: number): number {
  return 10 ** decimals + 1;
}

export type DescriptionLengthInput = {
  /** Δ, the queries' sensitivity (the noise grid), and n_eff, the size the concentration may count on (theorem2.ts concentrationSize) */
  sensitivity: number;
  nEff: number;
  /** m queries, at most B holdout answers among them */
  queries: number;
  budget: number;
  /** how many threshold epochs (T̂ draws) the transcript can hold: B + 1 for one team */
  epochs?: number;
  /** the decimals holdout answers are released with */
  decimals: number;
  /**
   * whether the competition caps holdout answers over all teams: then a team's transcript also says
   * at which of its queries the cap was reached (other teams' charges decide it), one of m + 1
   * possibilities, which multiplies the count by m + 1 (docs/mechanism.md §2.7)
   */
  capped?: boolean;
  sigma: number;
  threshold: number;
  beta: number;
};

export type DescriptionLengthBound = {
  /** ln Σ_i ℓ_i (times m + 1 when the competition caps holdout answers) */
  lnCount: number;
  /** τ₁: every query's holdout mean within this of the truth */
  deviation: number;
  /** a holdout answer's distance to the truth: τ₁ + the answer noise's quantile + half a release step */
  holdoutAnswer: number;
  /** a public answer's distance to the truth: τ₁ + T + the quantiles of the threshold's noises */
  publicAnswer: number;
  /** the larger of the two: the tolerance every answer is within, with probability ≥ 1 − β */
  tolerance: number;
};

/**
 * Every answer's distance to the truth under the count (docs/mechanism.md §2.7), with β split in
 * three: β/3 for the deviation τ₁; β/3 for the Lap(4σ) noise of the at most B holdout answers; β/3
 * for the threshold noises (half for the T̂ ~ T + Lap(σ) draws of the epochs, half for the m
 * comparisons' γ ~ Lap(2σ)). A public answer is given only when |Q(X) − Q(D)| + γ ≤ T̂, so
 * |Q(D) − Q(P)| ≤ τ₁ + T + |Lap(σ)| + |Lap(2σ)|; a holdout answer is Q(X) + Lap(4σ) rounded to d
 * decimals. Quantiles are of the discrete Laplace on the holdout's grid (noise.ts).
 */
export function descriptionLengthBound(input: DescriptionLengthInput): DescriptionLengthBound {
  const { sensitivity, nEff, queries, budget, decimals, sigma, threshold, beta } = input;
  check(sensitivity > 0 && sensitivity <= 1, `sensitivity must be in (0, 1], got ${sensitivity}`);
  check(sigma > 0 && threshold >= 0, `σ must be positive and T ≥ 0, got σ = ${sigma}, T = ${threshold}`);
  check(beta > 0 && beta < 1, `β must be in (0, 1), got ${beta}`);
  const holdoutAnswers = Math.min(budget, queries);
  const epochs = input.epochs ?? holdoutAnswers + 1;
  const grid = gridFor(sensitivity);
  // P[|Z| > w] ≤ α for the discrete Laplace Z of `scale` when P[Z ≤ w] ≥ 1 − α/2.
  const quantile = (scale: number, alpha: number) => discreteLaplaceQuantile(1 - alpha / 2, scale, grid);
  const lnCount = lnPrefixTranscripts({ queries, holdoutAnswers, values: answerValues(decimals) }) + (input.capped ? Math.log(queries + 1) : 0);
  const deviation = deviationBound(lnCount, nEff, beta / 3);
  const answerNoise = holdoutAnswers === 0 ? 0 : quantile(4 * sigma, beta / 3 / holdoutAnswers);
  const holdoutAnswer = holdoutAnswers === 0 ? 0 : deviation + answerNoise + 0.5 * 10 ** -decimals;
  const publicAnswer = deviation + threshold + quantile(sigma, beta / 6 / epochs) + quantile(2 * sigma, beta / 6 / queries);
  return { lnCount, deviation, holdoutAnswer, publicAnswer, tolerance: Math.max(holdoutAnswer, publicAnswer) };
}
