import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { clampUnit, discreteLaplaceCdf, gridFor, sampleDiscreteLaplace, snapToGrid } from "@/lib/mechanism/noise";

const GRID = 2 ** -10;
const SCALE = 0.05;
const SAMPLES = 20_000;
// Kolmogorov's asymptotic critical value at α = 0.001 is 1.95/√N; for a discrete distribution the
// test is conservative (Noether 1963), so a correct sampler fails with probability below 0.1%.
const CRITICAL = 1.95 / Math.sqrt(SAMPLES);

/** KS distance between the empirical law of samples (in grid units) and the discrete Laplace CDF. */
function ksDistance(samples: number[], scale: number): number {
  const ks = samples.map((x) => Math.round(x / GRID)).sort((a, b) => a - b);
  let d = 0;
  for (let i = 0; i < ks.length; i++) {
    if (i + 1 < ks.length && ks[i + 1] === ks[i]) continue;
    const f = discreteLaplaceCdf(ks[i], scale, GRID);
    const fBefore = discreteLaplaceCdf(ks[i] - 1, scale, GRID);
    const first = ks.indexOf(ks[i]);
    d = Math.max(d, Math.abs((i + 1) / ks.length - f), Math.abs(first / ks.length - fBefore));
  }
  return d;
}

function draw(scale: number, seed: string): number[] {
  const rng = seedrandom(seed);
  return Array.from({ length: SAMPLES }, () => sampleDiscreteLaplace(scale, GRID, rng));
}

describe("discrete Laplace sampler", () => {
  it("matches the discrete Laplace CDF at its scale (KS, α = 0.001)", () => {
    expect(ksDistance(draw(SCALE, "ks"), SCALE)).toBeLessThan(CRITICAL);
  });

  it.each([0.7, 1.3])("is told apart from scale ×%f (power check)", (factor) => {
    expect(ksDistance(draw(SCALE * factor, "power"), SCALE)).toBeGreaterThan(CRITICAL);
  });

  it("draws only multiples of the grid, symmetric around 0", () => {
    const samples = draw(SCALE, "grid");
    for (const x of samples) expect(Number.isInteger(x / GRID)).toBe(true);
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    // sd of Lap(0.05) is 0.0707; the mean of 20,000 draws is within 5 sd/√N = 0.0025 (p < 1e-6).
    expect(Math.abs(mean)).toBeLessThan(0.0025);
  });

  it("the CDF is a distribution: 0 far left, 1 far right, P[0] = (1 − r)/(1 + r)", () => {
    const r = Math.exp(-GRID / SCALE);
    expect(discreteLaplaceCdf(-100_000, SCALE, GRID)).toBeLessThan(1e-12);
    expect(discreteLaplaceCdf(100_000, SCALE, GRID)).toBeCloseTo(1, 12);
    expect(discreteLaplaceCdf(0, SCALE, GRID) - discreteLaplaceCdf(-1, SCALE, GRID)).toBeCloseTo((1 - r) / (1 + r), 12);
  });
});

describe("grid and release", () => {
  it("g = 2^⌊log2(Δ/1024)⌋ (docs/mechanism.md §2.3)", () => {
    expect(gridFor(1 / 1000)).toBe(2 ** -20); // 1/1,024,000 lies in [2^-20, 2^-19)
    expect(gridFor(1 / 1024)).toBe(2 ** -20);
    expect(gridFor(1e-6)).toBe(2 ** -30);
    expect(gridFor(1)).toBe(2 ** -10);
  });

  it("snaps to the nearest grid point and clamps to [0, 1]", () => {
    expect(snapToGrid(0.3, 2 ** -4)).toBe(0.3125);
    expect(snapToGrid(1 / 3, 2 ** -20) * 2 ** 20).toBe(349525);
    expect(clampUnit(-0.2)).toBe(0);
    expect(clampUnit(1.7)).toBe(1);
    expect(clampUnit(0.42)).toBe(0.42);
  });

  it("rejects a non-positive scale with a message", () => {
    expect(() => sampleDiscreteLaplace(0, GRID, Math.random)).toThrow("noise scale must be positive, got 0");
  });
});
