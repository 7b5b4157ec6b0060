import { describe, expect, it } from "vitest";
import { checkTransitionMatrix } from "@/lib/calibration/chain";
import { quiltInfluence } from "@/lib/calibration/quilts";

// Brute force for Zhao 2017's max-influence b_i = max_{L ⊆ N} I(X_Q ⇝ X_i | X_L), computed from the
// full joint distribution of a short chain by enumerating every sequence, every subset L of the
// nearby set and every value of X_L, X_i, X_i', X_Q. The factorised formula of docs/mechanism.md §3 must agree
// for every node and every quilt.

const STATES = 3;
const LENGTH = 6;

type Joint = { seq: number[]; prob: number }[];

function joint(p: number[][], q: number[]): Joint {
  const out: Joint = [];
  const walk = (seq: number[], prob: number) => {
    if (seq.length === LENGTH) return void out.push({ seq, prob });
    for (let s = 0; s < STATES; s++) {
      const step = seq.length === 0 ? q[s] : p[seq[seq.length - 1]][s];
      walk([...seq, s], prob * step);
    }
  };
  walk([], 1);
  return out;
}

/** P[X_S = values] for positions S (0-based) by summation over the joint. */
function marginal(dist: Joint, positions: number[], values: number[]): number {
  let sum = 0;
  for (const { seq, prob } of dist) if (positions.every((pos, k) => seq[pos] === values[k])) sum += prob;
  return sum;
}

function assignments(count: number): number[][] {
  if (count === 0) return [[]];
  return assignments(count - 1).flatMap((rest) => Array.from({ length: STATES }, (_, s) => [...rest, s]));
}

function bruteInfluence(dist: Joint, node: number, quilt: number[], nearby: number[]): number {
  let best = 0;
  for (let mask = 0; mask < 1 << nearby.length; mask++) {
    const l = nearby.filter((_, k) => mask & (1 << k));
    for (const xl of assignments(l.length))
      for (let x = 0; x < STATES; x++)
        for (let y = 0; y < STATES; y++) {
          if (x === y) continue;
          const px = marginal(dist, [node, ...l], [x, ...xl]);
          const py = marginal(dist, [node, ...l], [y, ...xl]);
          if (px === 0 || py === 0) continue;
          for (const xq of assignments(quilt.length)) {
            const num = marginal(dist, [...quilt, node, ...l], [...xq, x, ...xl]) / px;
            const den = marginal(dist, [...quilt, node, ...l], [...xq, y, ...xl]) / py;
            if (num === 0) continue;
            best = Math.max(best, den === 0 ? Infinity : num / den);
          }
        }
  }
  return Math.log(best);
}

const CASES: { name: string; p: number[][]; q: number[] | "stationary" }[] = [
  {
    name: "sticky chain, stationary start",
    p: [
      [0.8, 0.1, 0.1],
      [0.2, 0.7, 0.1],
      [0.1, 0.3, 0.6],
    ],
    q: "stationary",
  },
  {
    name: "sticky chain, skewed start",
    p: [
      [0.8, 0.1, 0.1],
      [0.2, 0.7, 0.1],
      [0.1, 0.3, 0.6],
    ],
    q: [0.7, 0.2, 0.1],
  },
  {
    name: "non-reversible cycle, uniform start",
    p: [
      [0.1, 0.8, 0.1],
      [0.1, 0.1, 0.8],
      [0.8, 0.1, 0.1],
    ],
    q: [1 / 3, 1 / 3, 1 / 3],
  },
  {
    name: "mixing chain, deterministic-ish start",
    p: [
      [0.4, 0.3, 0.3],
      [0.25, 0.5, 0.25],
      [0.3, 0.3, 0.4],
    ],
    q: [0.98, 0.01, 0.01],
  },
];

describe("factorised max-influence equals brute force over the joint distribution", () => {
  it.each(CASES)("$name: every node, every quilt", ({ p, q }) => {
    const transition = checkTransitionMatrix(p);
    const initial = q === "stationary" ? undefined : Float64Array.from(q);
    const stationary = q === "stationary" ? stationaryOf(p) : q;
    const dist = joint(p, stationary);
    let compared = 0;
    for (let i = 1; i <= LENGTH; i++) {
      const lefts: (number | null)[] = [null, ...Array.from({ length: i - 1 }, (_, k) => k + 1)];
      const rights: (number | null)[] = [null, ...Array.from({ length: LENGTH - i }, (_, k) => k + 1)];
      for (const a of lefts)
        for (const b of rights) {
          const quilt = [...(a ? [i - a] : []), ...(b ? [i + b] : [])].map((x) => x - 1);
          const nearby = Array.from({ length: LENGTH }, (_, k) => k).filter((k) => {
            const lo = a ? i - a : 0; // 1-based bounds of the nearby window (exclusive)
            const hi = b ? i + b : LENGTH + 1;
            return k + 1 > lo && k + 1 < hi && k + 1 !== i;
          });
          const expected = bruteInfluence(dist, i - 1, quilt, nearby);
          const actual = quiltInfluence({ transition, initial, length: LENGTH }, i, a, b);
          expect(actual, `node ${i}, a=${a}, b=${b}`).toBeCloseTo(expected, 10);
          compared++;
        }
    }
    expect(compared).toBe(Array.from({ length: LENGTH }, (_, k) => (k + 1) * (LENGTH - k)).reduce((x, y) => x + y));
  });
});

function stationaryOf(p: number[][]): number[] {
  let pi = [1 / 3, 1 / 3, 1 / 3];
  for (let k = 0; k < 5000; k++) pi = pi.map((_, j) => pi.reduce((s, x, i) => s + x * p[i][j], 0));
  return pi;
}
