import seedrandom from "seedrandom";

/**
 * A submission's sketch: its predictions on a fixed random sample of holdout rows, quantised to
 * integers (class codes; numbers to 1/1000). Two submissions that agree on almost all of the
 * holdout agree on almost all of the sample (128 rows: at 98 % agreement the estimate's standard
 * error is about 1.2 %), so near-identical submissions of different teams — one person behind
 * several accounts, or a shared file — can be found without reading whole files.
 */
export const SKETCH_ROWS = 128;
const BANDS = 16; // 16 bands of 8 rows: two sketches that agree on ≥ 98 % share a band with probability ≥ 0.99

/** The sampled rows: the same for every submission of a competition (seeded by its id). */
export function sketchRows(holdoutRows: Uint32Array, seed: string): Uint32Array {
  const rng = seedrandom(`sketch:${seed}`);
  const k = Math.min(SKETCH_ROWS, holdoutRows.length);
  const picked = new Uint32Array(k);
  const pool = Uint32Array.from(holdoutRows);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
    picked[i] = pool[i];
  }
  return picked;
}

export function sketchOf(predictions: Int32Array | Float64Array, rows: Uint32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(rows.length);
  const integers = predictions instanceof Int32Array;
  for (let i = 0; i < rows.length; i++) out[i] = integers ? predictions[rows[i]] : Math.round(predictions[rows[i]] * 1000);
  return out;
}

/** The fraction of sampled rows on which two sketches agree. */
export function agreement(a: Int32Array, b: Int32Array): number {
  const n = Math.min(a.length, b.length);
  let same = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i]) same++;
  return n ? same / n : 0;
}

/** Band keys (locality-sensitive hashing): sketches sharing a key are candidate near-duplicates. */
export function bandKeys(sketch: Int32Array): string[] {
  const size = Math.ceil(sketch.length / BANDS);
  const keys: string[] = [];
  for (let b = 0; b * size < sketch.length; b++) keys.push(`${b}:${Array.prototype.join.call(sketch.subarray(b * size, (b + 1) * size), ",")}`);
  return keys;
}
