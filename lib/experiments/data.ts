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
