import { describe, expect, it } from "vitest";
import { checkTransitionMatrix } from "@/lib/calibration/chain";
import { exactQuiltEpsDp } from "@/lib/calibration/quilts";

// Reference values of docs/mechanism.md §3: Song, Wang & Chaudhuri (2017), "Pufferfish privacy mechanisms for
// correlated data", MQMExact on a symmetric binary chain of length 100 with a stationary start,
// ε = 1, influence factor 1. The value is the noise scale max_i min_Q (|N|+1)/(ε − b) = 1/ε_DP.
const REFERENCE: [p: number, scale: number][] = [
  [0.9, 31.7378],
  [0.8, 13.0751],
  [0.7, 6.7236],
  [0.6, 3.5718],
];

describe("exact quilt search reproduces MQMExact", () => {
  it.each(REFERENCE)("p = %f gives noise scale %f", (p, scale) => {
    const transition = checkTransitionMatrix([
      [p, 1 - p],
      [1 - p, p],
    ]);
    const result = exactQuiltEpsDp({ transition, length: 100 }, 1, 1);
    expect(1 / result.value).toBeCloseTo(scale, 4);
    expect(result.exhaustive).toBe(true);
  });

  it("a chain whose rows are independent gives exactly 1/ε", () => {
    const transition = checkTransitionMatrix([
      [0.5, 0.5],
      [0.5, 0.5],
    ]);
    for (const eps of [0.1, 1, 2]) {
      expect(exactQuiltEpsDp({ transition, length: 100 }, eps, 1).value).toBe(eps);
      expect(exactQuiltEpsDp({ transition, length: 100 }, eps).value).toBe(eps);
    }
  });

  it("three states with identical rows are independent too", () => {
    const row = [0.2, 0.3, 0.5];
    const transition = checkTransitionMatrix([row, row, row]);
    expect(exactQuiltEpsDp({ transition, length: 1000 }, 0.5).value).toBeCloseTo(0.5, 12);
  });
});
