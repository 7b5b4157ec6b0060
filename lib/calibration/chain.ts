// Markov chains of states: checking, fitting and describing them (stationary distribution, spectral
// gap λ, reversibility, effective size). The calibration's two bounds build on this: the closed form
// for reversible chains (closed-form.ts) and the exact quilt search (quilts.ts).
import { check } from "../mechanism/errors";
import { type Matrix, matrixFromRows, multiply, solve, symmetricEigenvalues } from "./linalg";

/** Largest state space the calibration accepts (docs/mechanism.md §3). */
export const MAX_STATES = 64;

/**
 * Checks that `rows` is a transition matrix: square, 2 ≤ |S| ≤ 64, entries in [0, 1], rows summing
 * to 1 (within 1e-9). Throws a MathInputError naming the row, e.g.
 * "transition matrix row 3 sums to 0.97, expected 1".
 */
export function checkTransitionMatrix(rows: number[][]): Matrix {
  const size = rows.length;
  check(size >= 2 && size <= MAX_STATES, `transition matrix must have 2 to ${MAX_STATES} states, got ${size}`);
  rows.forEach((row, i) => {
    check(row.length === size, `transition matrix row ${i + 1} has ${row.length} entries, expected ${size}`);
    row.forEach((p, j) => check(Number.isFinite(p) && p >= 0 && p <= 1, `transition matrix entry (${i + 1}, ${j + 1}) is ${p}, expected a probability`));
    const sum = row.reduce((a, b) => a + b, 0);
    check(Math.abs(sum - 1) <= 1e-9, `transition matrix row ${i + 1} sums to ${round(sum)}, expected 1`);
  });
  return matrixFromRows(rows);
}

/** Checks an initial distribution over `size` states. */
export function checkDistribution(q: number[], size: number): Float64Array {
  check(q.length === size, `initial distribution has ${q.length} entries, expected ${size}`);
  q.forEach((p, j) => check(Number.isFinite(p) && p >= 0, `initial distribution entry ${j + 1} is ${p}, expected ≥ 0`));
  const sum = q.reduce((a, b) => a + b, 0);
  check(Math.abs(sum - 1) <= 1e-9, `initial distribution sums to ${round(sum)}, expected 1`);
  return Float64Array.from(q);
}

/** True when every state reaches every other through positive transitions. */
export function isIrreducible(p: Matrix): boolean {
  const n = p.size;
  const reach = (forward: boolean) => {
    const seen = new Uint8Array(n);
    const stack = [0];
    seen[0] = 1;
    while (stack.length) {
      const u = stack.pop()!;
      for (let v = 0; v < n; v++) {
        const w = forward ? p.data[u * n + v] : p.data[v * n + u];
        if (w > 0 && !seen[v]) {
          seen[v] = 1;
          stack.push(v);
        }
      }
    }
    return seen.every((s) => s === 1);
  };
  return reach(true) && reach(false);
}

/**
 * Period of an irreducible chain: gcd over edges u→v of level(u) + 1 − level(v), where level is the
 * breadth-first distance from state 0 (Denardo 1977). Aperiodic ⇔ period 1.
 */
export function period(p: Matrix): number {
  const n = p.size;
  const level = new Array<number>(n).fill(-1);
  level[0] = 0;
  const queue = [0];
  for (let h = 0; h < queue.length; h++) {
    const u = queue[h];
    for (let v = 0; v < n; v++) {
      if (p.data[u * n + v] > 0 && level[v] < 0) {
        level[v] = level[u] + 1;
        queue.push(v);
      }
    }
  }
  let g = 0;
  for (let u = 0; u < n; u++) for (let v = 0; v < n; v++) if (p.data[u * n + v] > 0 && level[u] >= 0) g = gcd(g, Math.abs(level[u] + 1 - level[v]));
  return g;
}

/** The stationary distribution π = π P of an irreducible chain (solved exactly, not iterated). */
export function stationaryDistribution(p: Matrix): Float64Array {
  const n = p.size;
  // Rows of (Pᵀ − I), with the last equation replaced by Σ π = 1.
  const rows = Array.from({ length: n }, (_, j) => Array.from({ length: n }, (_, i) => (j === n - 1 ? 1 : p.data[i * n + j] - (i === j ? 1 : 0))));
  const rhs = Array.from({ length: n }, (_, j) => (j === n - 1 ? 1 : 0));
  const pi = solve(rows, rhs);
  check(pi !== null, "transition matrix has no unique stationary distribution (is the chain irreducible?)");
  return pi.map((x) => Math.max(0, x));
}

/** Detailed balance π_i P_ij = π_j P_ji within 1e-10: the chain is reversible. */
export function isReversible(p: Matrix, pi: Float64Array): boolean {
  const n = p.size;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (Math.abs(pi[i] * p.data[i * n + j] - pi[j] * p.data[j * n + i]) > 1e-10) return false;
  return true;
}

/** D^{1/2} P D^{-1/2} with D = diag(π). */
function symmetrised(p: Matrix, pi: Float64Array): Matrix {
  const n = p.size;
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * n + j] = (Math.sqrt(pi[i]) * p.data[i * n + j]) / Math.sqrt(pi[j]);
  return { size: n, data: out };
}

/**
 * λ of docs/mechanism.md §2.5: the second largest singular value of D^{1/2} P D^{-1/2}, D = diag(π).
 * Its largest singular value is 1 (singular vector √π); 1 − λ is the absolute spectral gap that
 * Fan, Jiang & Sun (2018) use in Hoeffding's inequality for Markov chains.
 */
export function secondSingularValue(p: Matrix, pi: Float64Array): number {
  const m = symmetrised(p, pi);
  const n = m.size;
  const mtm = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += m.data[k * n + i] * m.data[k * n + j];
      mtm[i * n + j] = s;
    }
  const eig = symmetricEigenvalues({ size: n, data: mtm });
  return Math.sqrt(Math.min(1, Math.max(0, eig[1])));
}

/**
 * Spectral gap g = 1 − max_{j≥2} |λ_j| of a reversible chain (Zhao 2017, Lemma 4). A reversible P is
 * similar to the symmetric D^{1/2} P D^{-1/2}, so its eigenvalues are real and Jacobi finds them.
 */
export function spectralGap(p: Matrix, pi: Float64Array): number {
  const eig = symmetricEigenvalues(symmetrised(p, pi));
  return 1 - Math.max(Math.abs(eig[1]), Math.abs(eig[eig.length - 1]));
}

/** Effective sample size n (1 − λ)/(1 + λ) of a stationary chain (docs/mechanism.md §2.5; Fan, Jiang, Sun 2018). */
export function effectiveSampleSize(n: number, lambda: number): number {
  return (n * (1 - lambda)) / (1 + lambda);
}

export type ChainSummary = {
  states: number;
  stationary: number[];
  irreducible: boolean;
  period: number;
  reversible: boolean;
  /** 1 − max_{j≥2}|λ_j|, only for reversible chains (Lemma 4) */
  spectralGap: number | null;
  /** second singular value of D^{1/2} P D^{-1/2} (docs/mechanism.md §2.5) */
  lambda: number;
  /** t_mix = t_mix(1/4), the steps after which every start is within 1/4 of π in total variation (mixingTime); null beyond 2⁴⁰ steps */
  mixingTime: number | null;
};

/** Everything an organizer needs to see about a chain; throws for a reducible or periodic one. */
export function describeChain(p: Matrix): ChainSummary {
  const irreducible = isIrreducible(p);
  check(irreducible, "the Markov chain is not irreducible: some state cannot be reached from another");
  const d = period(p);
  check(d === 1, `the Markov chain is periodic with period ${d}; calibration needs an aperiodic chain`);
  const pi = stationaryDistribution(p);
  const reversible = isReversible(p, pi);
  return {
    states: p.size,
    stationary: Array.from(pi),
    irreducible,
    period: d,
    reversible,
    spectralGap: reversible ? spectralGap(p, pi) : null,
    lambda: secondSingularValue(p, pi),
    mixingTime: finiteOrNull(mixingTime(p, pi)),
  };
}

/** d(t) = max_x ‖P^t(x, ·) − π‖_TV: how far the worst start still is from π after t steps. */
function distanceToStationary(pt: Matrix, pi: Float64Array): number {
  const n = pt.size;
  let worst = 0;
  for (let x = 0; x < n; x++) {
    let tv = 0;
    for (let y = 0; y < n; y++) tv += Math.abs(pt.data[x * n + y] - pi[y]);
    worst = Math.max(worst, tv / 2);
  }
  return worst;
}

/** Mixing times beyond this many steps are reported as infinite (no concentration bound uses them). */
const MAX_MIXING_STEPS = 2 ** 40;

/**
 * The mixing time t_mix(ε) = min{t : d(t) ≤ ε}, d(t) = max_x ‖P^t(x, ·) − π‖_TV (Levin, Peres &
 * Wilmer, §4.5), at ε = 1/4 by default. d is non-increasing in t, so the first t is found by squaring
 * P until d ≤ ε and then bisecting with products of the stored powers: O(|S|³ log t). Infinity past
 * 2⁴⁰ steps. Paulin's McDiarmid inequality for Markov chains counts 9·t_mix(1/4) (concentration.ts).
 */
export function mixingTime(p: Matrix, pi: Float64Array, epsilon = 0.25): number {
  check(epsilon > 0 && epsilon < 1, `ε must be in (0, 1), got ${epsilon}`);
  // powers[k] = P^(2^k)
  const powers: Matrix[] = [p];
  if (distanceToStationary(p, pi) <= epsilon) return 1;
  while (distanceToStationary(powers[powers.length - 1], pi) > epsilon) {
    if (2 ** powers.length > MAX_MIXING_STEPS) return Infinity;
    const last = powers[powers.length - 1];
    powers.push(multiply(last, last));
  }
  // d(2^(k−1)) > ε ≥ d(2^k): the answer is in (2^(k−1), 2^k]; add lower powers while d stays above ε.
  const k = powers.length - 1;
  let steps = 2 ** (k - 1);
  let at = powers[k - 1];
  for (let j = k - 2; j >= 0; j--) {
    const next = multiply(at, powers[j]);
    if (distanceToStationary(next, pi) > epsilon) {
      at = next;
      steps += 2 ** j;
    }
  }
  return steps + 1;
}

/**
 * Fits P from observed state sequences by transition counts with add-α smoothing:
 * P_ij = (c_ij + α) / (Σ_k c_ik + |S| α). Transitions are counted within each sequence only
 * (one sequence per independent chain, e.g. per user). States are sorted labels.
 */
export function fitTransitionMatrix(sequences: string[][], alpha: number): { states: string[]; transition: number[][] } {
  check(Number.isFinite(alpha) && alpha > 0, `smoothing alpha must be positive, got ${alpha}`);
  const states = [...new Set(sequences.flat())].sort();
  check(states.length >= 2, `the state column has ${states.length} distinct value(s); a chain needs at least 2`);
  check(states.length <= MAX_STATES, `the state column has ${states.length} distinct values; at most ${MAX_STATES} are supported`);
  const index = new Map(states.map((s, i) => [s, i]));
  const n = states.length;
  const counts = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const seq of sequences) for (let t = 1; t < seq.length; t++) counts[index.get(seq[t - 1])!][index.get(seq[t])!] += 1;
  const transition = counts.map((row) => {
    const total = row.reduce((a, b) => a + b, 0) + n * alpha;
    return row.map((c) => (c + alpha) / total);
  });
  return { states, transition };
}

function finiteOrNull(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * The largest of `lengths` (each chain's or group's rows), 0 for none: one per group of the
 * solution, half a million for 10⁶ rows in pairs, too many to pass as the arguments of Math.max
 * (a RangeError).
 */
export function longestOf(lengths: readonly number[]): number {
  let most = 0;
  for (const l of lengths) if (l > most) most = l;
  return most;
}
