import { check } from "../mechanism/errors";

/**
 * What Algorithm 1 costs an honest team (docs/mechanism.md §2.6). An honest model's public and holdout
 * scores differ only by sampling: d = Q(X) − Q(D) is about N(0, s²) with
 *   s = √(v/n_pub + v/n),  v ≤ ¼ the per-row variance of a [0, 1] metric,
 * yet the check |d| + γ > T̂ (γ ~ Lap(2σ), T̂ ~ T + Lap(σ)) charges it one unit of budget whenever the
 * noise or the gap crosses the threshold. T̂ is redrawn only after a charge, so the charges form a
 * renewal process: within an epoch whose threshold is t the queries are charged independently with
 * probability p(t) = P[|d| + γ > t], and the epoch's length is geometric given t.
 */

/** s = √(v/n_pub + v/n) with v = ¼ (the largest variance of a [0, 1] value): the sd of an honest gap. */
export function honestGapSd(publicRows: number, holdoutRows: number, variance = 0.25): number {
  check(publicRows > 0 && holdoutRows > 0, `both splits need rows, got ${publicRows} public and ${holdoutRows} holdout`);
  return Math.sqrt(variance / publicRows + variance / holdoutRows);
}

/** P[γ > y] for γ ~ Laplace(0, b). */
function laplaceTail(y: number, b: number): number {
  return y >= 0 ? 0.5 * Math.exp(-y / b) : 1 - 0.5 * Math.exp(y / b);
}

/** Composite Simpson's rule of f on [a, b] with an even number of intervals. */
function simpson(f: (x: number) => number, a: number, b: number, intervals: number): number {
  const h = (b - a) / intervals;
  let sum = f(a) + f(b);
  for (let i = 1; i < intervals; i++) sum += (i % 2 ? 4 : 2) * f(a + i * h);
  return (sum * h) / 3;
}

/** p(t) = P[|d| + γ > t] for d ~ N(0, s²) and γ ~ Lap(2σ): one honest query's chance of a charge under threshold t. */
function chargeProbability(t: number, sigma: number, gapSd: number): number {
  if (gapSd === 0) return laplaceTail(t, 2 * sigma);
  // |d| is half-normal: density √(2/π)/s · e^{−x²/(2s²)} on x ≥ 0; 9 s holds all but 1e-19 of it.
  const density = (x: number) => (Math.sqrt(2 / Math.PI) / gapSd) * Math.exp(-(x * x) / (2 * gapSd * gapSd));
  return simpson((x) => density(x) * laplaceTail(t - x, 2 * sigma), 0, 9 * gapSd, 360);
}

/**
 * The expected number of charges an honest team gets over m queries, E[N(m)] of the renewal process
 * above: with f_k = E_t[(1 − p(t))^{k−1} p(t)] (t = T + Lap(σ)) the chance that an epoch ends at its
 * k-th query, u_j = Σ_{k ≤ j} f_k u_{j−k} (u_0 = 1) is the chance of a charge at query j, and
 * E[N(m)] = Σ_{j ≤ m} u_j. The budget is not counted against (a team out of budget gets ⊥ rather
 * than charges), so this is the charges an unlimited budget would see. Exact but for the quadrature
 * over T̂ and the gap (Simpson's rule) and the continuous Laplace standing for the discrete one on its
 * fine grid. Costs O(min(m, J)²) with J = 4,000: beyond J queries u_j has settled at the renewal
 * rate 1/E[epoch length] (the renewal theorem), so the rest adds (m − J) times the mean of the last
 * 500 u_j.
 * @param sigma σ, @param threshold T, @param gapSd s, all in [0, 1] metric units; @param queries m
 */
export function expectedCharges({ sigma, threshold, gapSd, queries }: { sigma: number; threshold: number; gapSd: number; queries: number }): number {
  check(sigma > 0 && Number.isFinite(sigma), `σ must be positive, got ${sigma}`);
  check(threshold >= 0 && Number.isFinite(threshold), `T must be ≥ 0, got ${threshold}`);
  check(gapSd >= 0 && Number.isFinite(gapSd), `the gap's sd must be ≥ 0, got ${gapSd}`);
  check(Number.isInteger(queries) && queries >= 1, `queries must be a whole number ≥ 1, got ${queries}`);
  const exact = Math.min(queries, EXACT_QUERIES);
  // T̂ = T + z, z ~ Lap(σ): Simpson on each side of the kink at z = 0; 45σ holds all but e^{-45}.
  const half = 400;
  const step = (45 * sigma) / half;
  const nodes: { weight: number; p: number }[] = [];
  for (let i = -half; i <= half; i++) {
    const z = i * step;
    const simpsonWeight = i === -half || i === half ? 1 : i === 0 ? 2 : Math.abs(i) % 2 ? 4 : 2;
    const density = Math.exp(-Math.abs(z) / sigma) / (2 * sigma);
    nodes.push({ weight: (simpsonWeight * step * density) / 3, p: chargeProbability(threshold + z, sigma, gapSd) });
  }
  // f_k = Σ_nodes w (1 − p)^{k−1} p
  const f = new Float64Array(exact + 1);
  for (const { weight, p } of nodes) {
    let survive = weight;
    for (let k = 1; k <= exact; k++) {
      f[k] += survive * p;
      survive *= 1 - p;
      if (survive < 1e-300) break;
    }
  }
  const u = new Float64Array(exact + 1);
  u[0] = 1;
  let expected = 0;
  for (let j = 1; j <= exact; j++) {
    let s = 0;
    for (let k = 1; k <= j; k++) s += f[k] * u[j - k];
    u[j] = s;
    expected += s;
  }
  if (queries === exact) return expected;
  const rate = u.subarray(exact - 499).reduce((a, b) => a + b, 0) / 500;
  return expected + (queries - exact) * rate;
}

/** Queries up to which expectedCharges runs the renewal equation exactly. */
const EXACT_QUERIES = 4000;

/** σ = T / NOISE_RATIO: the noise is small beside the threshold, so the noise alone rarely charges an honest team. */
export const NOISE_RATIO = 32;

/** What the recommended settings aim for: fewer than this many charges of an honest team over its m queries. */
export const HONEST_TARGET = 0.1;

export type Recommendation = { sigma: number; threshold: number; expectedCharges: number; gapSd: number };

/**
 * A setting to two significant figures, rounded the way that spares honest teams: T up and σ down
 * (a higher threshold and less noise both charge an honest team less), so that an organizer reads
 * and enters the value the platform runs with.
 */
export function roundForHonestTeams({ sigma, threshold }: { sigma: number; threshold: number }): { sigma: number; threshold: number } {
  const round = (x: number, direction: "up" | "down") => {
    const unit = 10 ** (Math.floor(Math.log10(x)) - 1);
    return Number(((direction === "up" ? Math.ceil(x / unit - 1e-9) : Math.floor(x / unit + 1e-9)) * unit).toPrecision(2));
  };
  return { sigma: round(sigma, "down"), threshold: round(threshold, "up") };
}

// The recommended T/s and its expected charges, by m and target (see recommendSettings).
const recommendedRatios = new Map<string, { ratio: number; expectedCharges: number }>();

/**
 * The settings the planner recommends (docs/mechanism.md §2.6): σ = T/32 and the smallest T with
 * fewer than `target` expected charges of an honest team over m queries (bisection on T/s), each
 * to two significant figures (T up, σ down: roundForHonestTeams), with the charges at those. At
 * T/σ = 32 the noise alone stays far below one charge; the smallest T for < 0.1 is about 3.9 s
 * (about 3.05 s for < 1). The charges depend on T/s and σ/s alone (the gap, the threshold's noise
 * and the comparison's noise all scale with s), so the ratio is found once per m and target, and a
 * plan recomputed for another holdout or another team count does not search again.
 */
export function recommendSettings({ gapSd, queries, target = HONEST_TARGET }: { gapSd: number; queries: number; target?: number }): Recommendation {
  check(gapSd > 0, `the gap's sd must be positive, got ${gapSd}`);
  const key = `${queries}:${target}`;
  let found = recommendedRatios.get(key);
  if (!found) {
    const charges = (ratio: number) => expectedCharges({ sigma: ratio / NOISE_RATIO, threshold: ratio, gapSd: 1, queries });
    let lo = 0.5;
    let hi = 64;
    while (charges(hi) > target) hi *= 2;
    while (hi - lo > 1e-3) {
      const mid = (lo + hi) / 2;
      if (charges(mid) > target) lo = mid;
      else hi = mid;
    }
    found = { ratio: hi, expectedCharges: charges(hi) };
    recommendedRatios.set(key, found);
  }
  const rounded = roundForHonestTeams({ sigma: (found.ratio * gapSd) / NOISE_RATIO, threshold: found.ratio * gapSd });
  return { ...rounded, expectedCharges: expectedCharges({ ...rounded, gapSd, queries }), gapSd };
}
