import { check } from "./errors";
import type { Rng } from "./rng";

/**
 * The release grid g = 2^⌊log2(Δ_Q / 1024)⌋ (docs/mechanism.md §2.3): a power of two far below one row's effect,
 * so that sums of grid values are exact in floating point and no low bits of the input are released
 * (Mironov 2012, "On significance of the least significant bits for differential privacy").
 * @param sensitivity Δ_Q, 1/n for a statistical query on n rows
 */
export function gridFor(sensitivity: number): number {
  check(sensitivity > 0 && sensitivity <= 1, `sensitivity must be in (0, 1], got ${sensitivity}`);
  return 2 ** Math.floor(Math.log2(sensitivity / 1024));
}

/** Rounds a statistic to the nearest multiple of the grid g. */
export function snapToGrid(value: number, grid: number): number {
  return Math.round(value / grid) * grid;
}

/**
 * One draw of the two-sided geometric (discrete Laplace) distribution on multiples of `grid`:
 * P[Z = k·g] ∝ exp(−|k| g / scale), the discrete analogue of Lap(scale) (Ghosh, Roughgarden,
 * Sundararajan 2009; Google differential-privacy's and OpenDP's discrete Laplace).
 * Sampled as the difference of two geometric counts, each by inversion: P[K ≥ k] = e^{−k g/scale}.
 * Uses two uniforms from `rng`; returns k·g.
 * @param scale the Laplace scale, in the statistic's units (> 0)
 * @param grid g, in the statistic's units (> 0)
 */
export function sampleDiscreteLaplace(scale: number, grid: number, rng: Rng): number {
  check(scale > 0 && Number.isFinite(scale), `noise scale must be positive, got ${scale}`);
  check(grid > 0, `grid must be positive, got ${grid}`);
  const rate = grid / scale;
  const geometric = () => Math.floor(-Math.log(1 - rng()) / rate);
  return (geometric() - geometric()) * grid;
}

/** CDF of the discrete Laplace above at the grid point k·g: P[Z ≤ k·g]. */
export function discreteLaplaceCdf(k: number, scale: number, grid: number): number {
  const r = Math.exp(-grid / scale);
  // P[Z = j] = (1 − r)/(1 + r) r^{|j|}; sum the tails in closed form.
  return k < 0 ? r ** -k / (1 + r) : 1 - r ** (k + 1) / (1 + r);
}

/**
 * The smallest grid point w = k·g ≥ 0 with P[Z ≤ w] ≥ p, for p ∈ (½, 1): from the closed form above,
 * 1 − r^{k+1}/(1 + r) ≥ p ⇔ k ≥ ln((1 − p)(1 + r)) / ln r − 1, with r = e^{−g/scale}.
 */
export function discreteLaplaceQuantile(p: number, scale: number, grid: number): number {
  check(p > 0.5 && p < 1, `quantile level must be in (0.5, 1), got ${p}`);
  const r = Math.exp(-grid / scale);
  let k = Math.max(0, Math.ceil(Math.log((1 - p) * (1 + r)) / Math.log(r) - 1));
  while (k > 0 && discreteLaplaceCdf(k - 1, scale, grid) >= p) k--;
  while (discreteLaplaceCdf(k, scale, grid) < p) k++;
  return k * grid;
}

/** Clamps a release to [0, 1], the range of every metric's mean (docs/mechanism.md §2.3). */
export function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, value));
}
