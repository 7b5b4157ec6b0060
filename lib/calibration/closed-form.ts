// Zhao 2017, Lemma 4: the closed form of the DP level for reversible Markov chains.
import { check } from "../mechanism/errors";

export type ClosedForm = { epsDp: number; c: number; d: number; s: number };

/**
 * h(ε, g, ρ) of Zhao 2017, Lemma 4 (eq. 11), maximised over c ∈ (0, 1/6):
 *   d = ⌈(1/g) ln((e^{cε}+1)/(ρ(e^{cε}−1)))⌉,   s = ⌈(1/g) ln((e^{ε/6}+1)/(ρ(e^{ε/6}−1)))⌉,
 *   h = min{ (1 − 6c) ε / (2d − 1),  (1/3 − 2c) ε / (d + s) },   valid when n ≥ 2d.
 * Both terms fall as c grows while d stays fixed, so on each interval of c where d = D the best c is
 * the smallest one; those are enumerated for D = d(1/6), d(1/6)+1, … until ε/(2D − 1) cannot beat
 * the best found: the maximum is exact, not a grid search.
 * Returns null when no c gives n ≥ 2d.
 * @param eps ε, the BDP level; @param gap g ∈ (0, 1]; @param rho ρ = min_j π_j; @param n chain length
 */
export function closedFormEpsDp(eps: number, gap: number, rho: number, n: number): ClosedForm | null {
  check(eps > 0, `epsilon must be positive, got ${eps}`);
  check(gap > 0 && gap <= 1, `spectral gap must be in (0, 1], got ${gap}`);
  check(rho > 0 && rho <= 1, `least stationary probability must be in (0, 1], got ${rho}`);
  const dOf = (c: number) => Math.ceil(Math.log((Math.exp(c * eps) + 1) / (rho * Math.expm1(c * eps))) / gap);
  const s = Math.ceil(Math.log((Math.exp(eps / 6) + 1) / (rho * Math.expm1(eps / 6))) / gap);
  let best: ClosedForm | null = null;
  for (let d = Math.max(1, dOf(1 / 6)); 2 * d <= n; d++) {
    if (best && eps / (2 * d - 1) <= best.epsDp) break;
    // Smallest c with d(c) ≤ d: (e^{cε}+1)/(e^{cε}−1) ≤ K = ρ e^{g d}, i.e. c = ln(1 + 2/(K − 1))/ε,
    // nudged up by a few ulps at a time until rounding in d(c) agrees.
    const k = rho * Math.exp(gap * d);
    if (k <= 1) continue;
    let c = Math.log1p(2 / (k - 1)) / eps;
    for (let nudge = 0; nudge < 40 && dOf(c) > d; nudge++) c *= 1 + 2 ** (nudge - 52);
    if (c >= 1 / 6 || dOf(c) > d) continue;
    const h = Math.min(((1 - 6 * c) * eps) / (2 * d - 1), ((1 / 3 - 2 * c) * eps) / (d + s));
    if (!best || h > best.epsDp) best = { epsDp: h, c, d, s };
  }
  return best;
}
