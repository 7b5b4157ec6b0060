import type { Rng } from "../mechanism/rng";

/** ±1 labels, uniformly random (no signal), or a sticky binary Markov chain: stay with probability p. */
export function randomLabels(n: number, rng: Rng, stay?: number): Int8Array {
  const y = new Int8Array(n);
  y[0] = rng() < 0.5 ? 1 : -1;
  for (let i = 1; i < n; i++) y[i] = stay === undefined ? (rng() < 0.5 ? 1 : -1) : rng() < stay ? y[i - 1] : (-y[i - 1] as -1 | 1);
  return y;
}

/** n standard normal draws (Box–Muller), as 32-bit floats. */
export function normals(n: number, rng: Rng): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - rng()));
    const t = 2 * Math.PI * rng();
    out[i] = r * Math.cos(t);
    if (i + 1 < n) out[i + 1] = r * Math.sin(t);
  }
  return out;
}

/** Fraction of rows (of `rows`, or all) where a ±1 prediction equals the ±1 label (the experiments' own; the platform's metric is lib/metrics/accuracy.ts). */
export function signAccuracy(predictions: Int8Array, labels: Int8Array, rows?: Uint32Array): number {
  let hits = 0;
  if (rows) {
    for (let k = 0; k < rows.length; k++) if (predictions[rows[k]] === labels[rows[k]]) hits++;
    return hits / rows.length;
  }
  for (let i = 0; i < labels.length; i++) if (predictions[i] === labels[i]) hits++;
  return hits / labels.length;
}

/** ±1 predictions that get each row's label right with probability `accuracy`, independently (an honest model of that true accuracy). */
export function predictionsWithAccuracy(labels: Int8Array, accuracy: number, rng: Rng): Int8Array {
  return Int8Array.from(labels, (y) => (rng() < accuracy ? y : -y));
}

/**
 * Kendall's τ-b between two rankings' scores (ties counted as neither concordant nor discordant,
 * normalised by √((n₀ − n₁)(n₀ − n₂))): 1 when the orders agree, −1 when reversed. O(n²).
 */
export function kendallTau(x: number[], y: number[]): number {
  if (x.length !== y.length || x.length < 2) throw new Error(`kendallTau needs two lists of the same length ≥ 2, got ${x.length} and ${y.length}`);
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < x.length; i++)
    for (let j = i + 1; j < x.length; j++) {
      const a = Math.sign(x[i] - x[j]);
      const b = Math.sign(y[i] - y[j]);
      if (a === 0) tiesX++;
      if (b === 0) tiesY++;
      if (a * b > 0) concordant++;
      else if (a * b < 0) discordant++;
    }
  const pairs = (x.length * (x.length - 1)) / 2;
  return (concordant - discordant) / Math.sqrt((pairs - tiesX) * (pairs - tiesY));
}

/**
 * Scores in [0, 1] of true ROC AUC q on 0/1 labels (an honest ranking model): negatives' scores
 * uniform, positives' u^{1/k} with k = q/(1 − q), whose CDF x^k gives P[positive > negative] =
 * ∫ x · k x^{k−1} dx = k/(k + 1) = q.
 */
export function predictionsWithAuc(labels: Float64Array, auc: number, rng: Rng): Float64Array {
  const k = auc / (1 - auc);
  return Float64Array.from(labels, (y) => (y === 1 ? rng() ** (1 / k) : rng()));
}
