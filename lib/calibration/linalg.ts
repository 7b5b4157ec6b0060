/** Small dense linear algebra on square matrices stored row-major in Float64Array (|S| ≤ 64). */
export type Matrix = { size: number; data: Float64Array };

export function matrixFromRows(rows: number[][]): Matrix {
  const size = rows.length;
  const data = new Float64Array(size * size);
  rows.forEach((row, i) => data.set(row, i * size));
  return { size, data };
}

export function matrixToRows(m: Matrix): number[][] {
  return Array.from({ length: m.size }, (_, i) => Array.from(m.data.subarray(i * m.size, (i + 1) * m.size)));
}

export function multiply(a: Matrix, b: Matrix): Matrix {
  const n = a.size;
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      const aik = a.data[i * n + k];
      if (aik === 0) continue;
      for (let j = 0; j < n; j++) out[i * n + j] += aik * b.data[k * n + j];
    }
  }
  return { size: n, data: out };
}

/** Row vector times matrix: (v P)_j = Σ_i v_i P_ij. */
export function vectorTimes(v: Float64Array, m: Matrix): Float64Array {
  const n = m.size;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (v[i] === 0) continue;
    for (let j = 0; j < n; j++) out[j] += v[i] * m.data[i * n + j];
  }
  return out;
}

/**
 * Solves A x = b by Gaussian elimination with partial pivoting; returns null if A is singular.
 * A is given as rows (copied).
 */
export function solve(rows: number[][], b: number[]): Float64Array | null {
  const n = rows.length;
  const a = rows.map((r, i) => [...r, b[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    if (Math.abs(a[pivot][col]) < 1e-14) return null;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r][col] / a[col][col];
      if (f === 0) continue;
      for (let c = col; c <= n; c++) a[r][c] -= f * a[col][c];
    }
  }
  return Float64Array.from(a, (row, i) => row[n] / row[i]);
}

/**
 * Eigenvalues of a symmetric matrix by the cyclic Jacobi method (Golub & Van Loan, Matrix
 * Computations, §8.5), sorted in decreasing order. Accurate to ~1e-13 for |S| ≤ 64.
 */
export function symmetricEigenvalues(m: Matrix): number[] {
  const n = m.size;
  const a = Float64Array.from(m.data);
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
    }
  }
  return Array.from({ length: n }, (_, i) => a[i * n + i]).sort((x, y) => y - x);
}
