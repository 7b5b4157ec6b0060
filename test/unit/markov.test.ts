import { describe, expect, it } from "vitest";
import { checkTransitionMatrix, describeChain, effectiveSampleSize, fitTransitionMatrix, stationaryDistribution } from "@/lib/calibration/chain";
import { closedFormEpsDp } from "@/lib/calibration/closed-form";
import { exactQuiltEpsBdp, exactQuiltEpsDp } from "@/lib/calibration/quilts";
import { matrixFromRows } from "@/lib/calibration/linalg";

describe("chain checks name the problem", () => {
  it("a row that does not sum to 1", () => {
    expect(() =>
      checkTransitionMatrix([
        [0.5, 0.5],
        [0.5, 0.47],
      ]),
    ).toThrow("transition matrix row 2 sums to 0.97, expected 1");
  });
  it("a ragged or negative matrix", () => {
    expect(() => checkTransitionMatrix([[1, 0], [0.5]])).toThrow("row 2 has 1 entries, expected 2");
    expect(() =>
      checkTransitionMatrix([
        [1.5, -0.5],
        [0.5, 0.5],
      ]),
    ).toThrow("entry (1, 1) is 1.5, expected a probability");
  });
  it("a reducible chain", () => {
    expect(() =>
      describeChain(
        checkTransitionMatrix([
          [1, 0],
          [0.5, 0.5],
        ]),
      ),
    ).toThrow("not irreducible");
  });
  it("a periodic chain", () => {
    expect(() =>
      describeChain(
        checkTransitionMatrix([
          [0, 1],
          [1, 0],
        ]),
      ),
    ).toThrow("periodic with period 2");
  });
});

describe("chain summary", () => {
  it("symmetric binary chain: π = (½, ½), gap = λ₂ complement, λ = |2p − 1|", () => {
    const s = describeChain(
      checkTransitionMatrix([
        [0.9, 0.1],
        [0.1, 0.9],
      ]),
    );
    expect(s.stationary[0]).toBeCloseTo(0.5, 14);
    expect(s.reversible).toBe(true);
    expect(s.spectralGap).toBeCloseTo(0.2, 12);
    expect(s.lambda).toBeCloseTo(0.8, 12);
  });

  it("birth–death chain (always reversible) with known π", () => {
    // π ∝ (1, 2, 2) solves detailed balance for these rates: π1·0.4 = π2·0.2, π2·0.3 = π3·0.3.
    const p = checkTransitionMatrix([
      [0.6, 0.4, 0],
      [0.2, 0.5, 0.3],
      [0, 0.3, 0.7],
    ]);
    const s = describeChain(p);
    expect(s.stationary.map((x) => x * 5)).toEqual([expect.closeTo(1, 12), expect.closeTo(2, 12), expect.closeTo(2, 12)]);
    expect(s.reversible).toBe(true);
  });

  it("a cyclic drift is not reversible and has no Lemma 4 gap", () => {
    const s = describeChain(
      checkTransitionMatrix([
        [0.1, 0.8, 0.1],
        [0.1, 0.1, 0.8],
        [0.8, 0.1, 0.1],
      ]),
    );
    expect(s.reversible).toBe(false);
    expect(s.spectralGap).toBeNull();
    expect(s.lambda).toBeGreaterThan(0);
    expect(s.lambda).toBeLessThan(1);
  });

  it("n_eff = n(1 − λ)/(1 + λ)", () => {
    expect(effectiveSampleSize(1000, 0.8)).toBeCloseTo(1000 / 9, 10);
    expect(effectiveSampleSize(1000, 0)).toBe(1000);
  });
});

describe("fitting P from states", () => {
  it("counts transitions within each sequence with add-α smoothing", () => {
    const fit = fitTransitionMatrix(
      [
        ["a", "a", "b", "a"],
        ["b", "b"],
      ],
      1,
    );
    // a→a 1, a→b 1, b→a 1, b→b 1 (the second sequence's b→b; no transition across sequences).
    expect(fit.states).toEqual(["a", "b"]);
    expect(fit.transition).toEqual([
      [0.5, 0.5],
      [0.5, 0.5],
    ]);
    const skewed = fitTransitionMatrix([["a", "a", "a", "b"]], 0.5);
    expect(skewed.transition[0]).toEqual([2.5 / 4, 1.5 / 4]);
    expect(skewed.transition[1]).toEqual([0.5, 0.5]);
  });
  it("needs two states", () => {
    expect(() => fitTransitionMatrix([["x", "x"]], 1)).toThrow("1 distinct value(s)");
  });
});

describe("Lemma 4 closed form", () => {
  it("matches a hand computation for p = 0.9, ε = 1, n = 10⁴", () => {
    // g = 0.2, ρ = 0.5. For c = 0.1: d = ⌈5 ln((e^0.1 + 1)/(0.5 (e^0.1 − 1)))⌉ = ⌈5 ln(41.0083)⌉ = ⌈18.569⌉ = 19,
    // s = ⌈5 ln((e^{1/6} + 1)/(0.5 (e^{1/6} − 1)))⌉ = ⌈5 ln(24.0139)⌉ = ⌈15.890⌉ = 16,
    // h = min{(1 − 0.6)/37, (1/3 − 0.2)/35} = min{0.010811, 0.0038095} = 0.0038095.
    // The maximum over c cannot be below the value at c = 0.1.
    const best = closedFormEpsDp(1, 0.2, 0.5, 10_000)!;
    expect(best.s).toBe(16);
    expect(best.epsDp).toBeGreaterThanOrEqual(0.0038095);
    // At the optimum the formula holds with its own d and c.
    const d = Math.ceil(5 * Math.log((Math.exp(best.c) + 1) / (0.5 * Math.expm1(best.c))));
    expect(d).toBe(best.d);
    expect(best.epsDp).toBeCloseTo(Math.min((1 - 6 * best.c) / (2 * d - 1), (1 / 3 - 2 * best.c) / (d + 16)), 14);
  });

  it("the enumeration finds the maximum a fine grid over c finds, or better", () => {
    for (const [eps, gap, rho] of [
      [1, 0.2, 0.5],
      [0.01, 0.3, 0.1],
      [0.1, 0.05, 0.25],
    ]) {
      const exact = closedFormEpsDp(eps, gap, rho, 1e9)!;
      let grid = 0;
      for (let k = 1; k < 200_000; k++) {
        const c = k / 200_000 / 6;
        const d = Math.ceil(Math.log((Math.exp(c * eps) + 1) / (rho * Math.expm1(c * eps))) / gap);
        const s = Math.ceil(Math.log((Math.exp(eps / 6) + 1) / (rho * Math.expm1(eps / 6))) / gap);
        grid = Math.max(grid, Math.min(((1 - 6 * c) * eps) / (2 * d - 1), ((1 / 3 - 2 * c) * eps) / (d + s)));
      }
      expect(exact.epsDp).toBeGreaterThanOrEqual(grid);
      expect(exact.epsDp).toBeLessThan(grid * 1.001);
    }
  });

  it("does not apply when the chain is shorter than 2d", () => {
    expect(closedFormEpsDp(1, 0.2, 0.5, 10)).toBeNull();
  });

  it("is never larger than the exact quilt search", () => {
    const chains = [
      [
        [0.9, 0.1],
        [0.1, 0.9],
      ],
      [
        [0.7, 0.3],
        [0.2, 0.8],
      ],
      [
        [0.6, 0.4, 0],
        [0.2, 0.5, 0.3],
        [0, 0.3, 0.7],
      ],
    ];
    for (const rows of chains) {
      const transition = checkTransitionMatrix(rows);
      const s = describeChain(transition);
      for (const eps of [0.05, 0.5, 2]) {
        const closed = closedFormEpsDp(eps, s.spectralGap!, Math.min(...s.stationary), 100_000);
        const exact = exactQuiltEpsDp({ transition, length: 100_000 }, eps).value;
        expect(closed).not.toBeNull();
        expect(closed!.epsDp).toBeLessThanOrEqual(exact);
      }
    }
  });
});

describe("exact quilt search", () => {
  const transition = checkTransitionMatrix([
    [0.8, 0.2],
    [0.3, 0.7],
  ]);

  it("is monotone in ε and below ε", () => {
    let last = 0;
    for (const eps of [0.01, 0.1, 0.5, 1, 3]) {
      const v = exactQuiltEpsDp({ transition, length: 5000 }, eps).value;
      expect(v).toBeGreaterThan(last);
      expect(v).toBeLessThanOrEqual(eps);
      last = v;
    }
  });

  it("the forward map inverts the inverse map", () => {
    const eps = 0.5;
    const epsDp = exactQuiltEpsDp({ transition, length: 5000 }, eps).value;
    expect(exactQuiltEpsBdp({ transition, length: 5000 }, epsDp).value).toBeLessThanOrEqual(eps + 1e-12);
  });

  it("a short chain is bounded by its empty quilt ε/n", () => {
    const slow = checkTransitionMatrix([
      [0.999, 0.001],
      [0.001, 0.999],
    ]);
    const v = exactQuiltEpsDp({ transition: slow, length: 5 }, 1).value;
    expect(v).toBeCloseTo(1 / 5, 12);
  });

  it("a non-stationary start evaluates the early nodes one by one", () => {
    const start = Float64Array.from([1 - 1e-6, 1e-6]);
    const stationary = exactQuiltEpsDp({ transition, length: 2000 }, 0.5).value;
    const skewed = exactQuiltEpsDp({ transition, initial: start, length: 2000 }, 0.5).value;
    expect(skewed).toBeLessThan(stationary);
    const pi = stationaryDistribution(transition);
    expect(exactQuiltEpsDp({ transition, initial: pi, length: 2000 }, 0.5).value).toBeCloseTo(stationary, 10);
  });
});

describe("the quilt search's work guard (docs/mechanism.md §2.6)", () => {
  const S = 64;
  const stay = 1 - 1e-6;
  const sticky = Array.from({ length: S }, (_, i) => Array.from({ length: S }, (_, j) => (i === j ? stay : (1 - stay) / (S - 1))));

  it("a near-deterministic 64-state chain: stops at the guard with a valid bound, never below the empty quilt's ε/n", () => {
    const n = 1_000_000;
    const r = exactQuiltEpsDp({ transition: matrixFromRows(sticky), length: n }, 1);
    expect(r.exhaustive).toBe(false);
    expect(r.value).toBeGreaterThanOrEqual(1 / n);
    const forward = exactQuiltEpsBdp({ transition: matrixFromRows(sticky), length: n }, 1e-6);
    expect(forward.exhaustive).toBe(false);
    expect(forward.value).toBeLessThanOrEqual(n * 1e-6); // the empty quilt: (|N| + 1)·ε_DP with |N| = n − 1
  });

  it("a start far from stationarity (P[stay] = 0.999) does not evaluate every early node without bound", () => {
    const started = performance.now();
    const r = exactQuiltEpsDp(
      {
        transition: matrixFromRows([
          [0.999, 0.001],
          [0.001, 0.999],
        ]),
        initial: Float64Array.from([1, 0]),
        length: 100_000,
      },
      1,
    );
    console.log(`P[stay] = 0.999 from state 0, n = 10⁵: ${(performance.now() - started).toFixed(0)} ms, exhaustive ${r.exhaustive}`);
    expect(r.value).toBeGreaterThanOrEqual(1e-5);
    expect(r.exhaustive).toBe(false);
  });
});
