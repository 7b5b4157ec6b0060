import { describe, expect, it } from "vitest";
import { answerValues, deviationBound, descriptionLengthBound, lnChoose, lnGamma, lnPrefixTranscripts } from "@/lib/calibration/description-length";
import { expectedCharges, honestGapSd, recommendSettings, roundForHonestTeams } from "@/lib/calibration/honest";
import { boardSubmission, mergeBoardRows, nextBoardRow, type BoardRow } from "@/lib/mechanism/board";
import { answerDecimalsFor } from "@/lib/mechanism/thresholdout";
import { kendallTau } from "@/lib/experiments/data";
import { readFileSync } from "node:fs";
import { scoreDecimals, scoreText } from "@/lib/metrics/display";

// The reference figures quoted here are docs/mechanism.md §2.6 and §2.7's (there: an independent
// simulator of Algorithm 1 with the charges computed as a renewal process, and the count's numbers).

describe("the description-length count (docs/mechanism.md §2.7)", () => {
  it("ln Γ and ln C agree with exact values", () => {
    expect(lnGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13);
    expect(lnGamma(11)).toBeCloseTo(Math.log(3_628_800), 12);
    expect(lnChoose(52, 5)).toBeCloseTo(Math.log(2_598_960), 11);
    expect(lnChoose(7, 0)).toBe(0);
  });

  it("counts (query index, prefix transcript) pairs as an enumeration of the transcripts does", () => {
    // A transcript entry is a public answer (one value: it is a function of the public split) or one
    // of R holdout values; query i sees the i − 1 entries before it, at most B of them holdout answers.
    const enumerate = (m: number, budget: number, values: number): number => {
      let total = 0;
      let prefixes: number[] = [0]; // holdout answers in each prefix
      for (let i = 1; i <= m; i++) {
        total += prefixes.length;
        prefixes = prefixes.flatMap((h) => [h, ...(h < budget ? Array.from({ length: values }, () => h + 1) : [])]);
      }
      return total;
    };
    for (const [m, budget, values] of [
      [1, 0, 2],
      [5, 2, 3],
      [7, 7, 2],
      [8, 3, 4],
    ])
      expect(Math.exp(lnPrefixTranscripts({ queries: m, holdoutAnswers: budget, values }))).toBeCloseTo(enumerate(m, budget, values), 6);
  });

  it("reaches the figures of docs/mechanism.md §2.7: m = 300, B = 20, R = 1001, β = 0.05", () => {
    const lnCount = lnPrefixTranscripts({ queries: 300, holdoutAnswers: 20, values: 1001 });
    expect(lnCount).toBeCloseTo(211.86, 2); // "ln Σ ℓᵢ ≈ 212"
    expect([1e4, 1e5, 1e6].map((n) => Number(deviationBound(lnCount, n, 0.05 / 3).toFixed(3)))).toEqual([0.104, 0.033, 0.01]);
  });

  it("the competition-wide count: M = 300,000, H = 2,000 gives τ₁ vacuous at 10⁴, 0.36 at 10⁵, 0.114 at 10⁶; the largest H for τ₁ ≤ 0.05 is 28 at 10⁵ and 339 at 10⁶", () => {
    const lnCount = lnPrefixTranscripts({ queries: 300_000, holdoutAnswers: 2000, values: 1001 });
    expect(deviationBound(lnCount, 1e4, 0.05 / 3)).toBeGreaterThan(1);
    expect(deviationBound(lnCount, 1e5, 0.05 / 3)).toBeCloseTo(0.36, 2);
    expect(deviationBound(lnCount, 1e6, 0.05 / 3)).toBeCloseTo(0.114, 3);
    const tau = (h: number, n: number) => deviationBound(lnPrefixTranscripts({ queries: 300_000, holdoutAnswers: h, values: 1001 }), n, 0.05 / 3);
    expect([tau(28, 1e5) <= 0.05, tau(29, 1e5) <= 0.05]).toEqual([true, false]);
    expect([tau(339, 1e6) <= 0.05, tau(340, 1e6) <= 0.05]).toEqual([true, false]);
    expect([tau(3, 1e5) <= 0.02, tau(4, 1e5) <= 0.02, tau(47, 1e6) <= 0.02, tau(48, 1e6) <= 0.02]).toEqual([true, false, true, false]);
  });

  it("every answer's tolerance adds the noise the proof must cover: T for a public answer, Lap(4σ) for a holdout one", () => {
    const bound = descriptionLengthBound({ sensitivity: 1e-4, nEff: 10_000, queries: 300, budget: 20, decimals: 3, sigma: 0.001, threshold: 0.03, beta: 0.05 });
    expect(answerValues(3)).toBe(1001);
    expect(bound.deviation).toBeCloseTo(0.1041, 4);
    expect(bound.publicAnswer).toBeGreaterThan(bound.deviation + 0.03);
    // |Lap(4σ)| beyond w has probability e^{−w/(4σ)}: at β/3 over 20 answers, w = 4σ ln(1200) ≈ 0.02836 for
    // σ = 0.001; plus half a release step of 10⁻³.
    expect(bound.holdoutAnswer - bound.deviation).toBeCloseTo(0.004 * Math.log(1200) + 0.0005, 5);
    expect(bound.tolerance).toBe(Math.max(bound.publicAnswer, bound.holdoutAnswer));
  });

  it("releases holdout answers on a grid a tenth of the noise's 95 % half-width or finer", () => {
    expect(answerDecimalsFor(0.01)).toBe(2); // half-width 0.12: steps of 0.01
    expect(answerDecimalsFor(0.001)).toBe(3);
    expect(answerDecimalsFor(0.0001)).toBe(4);
    for (const sigma of [0.02, 0.003, 0.0007]) expect(10 ** -answerDecimalsFor(sigma)).toBeLessThanOrEqual((4 * sigma * Math.log(20)) / 10);
  });
});

describe("what the mechanism costs an honest team (docs/mechanism.md §2.6)", () => {
  const T = 0.04;
  const noiseOnly = (ratio: number) => expectedCharges({ sigma: T / ratio, threshold: T, gapSd: 0, queries: 300 });

  it("the noise alone: 16.5 charges over 300 queries at σ = T/4, 2.6 at T/8", () => {
    expect(noiseOnly(4)).toBeCloseTo(16.5, 1);
    expect(noiseOnly(8)).toBeCloseTo(2.6, 1);
  });

  it("fewer than 1 needs T/σ ≥ 10.1, fewer than 0.1 needs T/σ ≥ 15.1", () => {
    expect([noiseOnly(10.05) > 1, noiseOnly(10.15) < 1]).toEqual([true, true]);
    expect([noiseOnly(15.0) > 0.1, noiseOnly(15.15) < 0.1]).toEqual([true, true]);
  });

  it("the smallest T for < 1 expected charge over 300 queries is 3.74 s (σ = T/16), 3.17 s (T/24), 3.05 s (T/32); for < 0.1: 15.5 s, 4.35 s, 3.90 s", () => {
    const s = 0.01;
    const charges = (t: number, ratio: number) => expectedCharges({ sigma: (t * s) / ratio, threshold: t * s, gapSd: s, queries: 300 });
    for (const [ratio, t1, t01] of [
      [16, 3.74, 15.5],
      [24, 3.17, 4.35],
      [32, 3.05, 3.9],
    ]) {
      expect([charges(t1 - 0.03, ratio) > 1, charges(t1 + 0.03, ratio) < 1], `σ = T/${ratio}, < 1`).toEqual([true, true]);
      expect([charges(t01 - 0.06, ratio) > 0.1, charges(t01 + 0.06, ratio) < 0.1], `σ = T/${ratio}, < 0.1`).toEqual([true, true]);
    }
  });

  it("recommends σ = T/32 and the smallest T with fewer than 0.1 expected charges, to two significant figures (T up, σ down)", () => {
    const s = honestGapSd(10_000, 10_000);
    expect(s).toBeCloseTo(Math.sqrt(0.5 / 10_000), 15);
    const r = recommendSettings({ gapSd: s, queries: 300 });
    // T = 3.90 s = 0.02755… rounds up to 0.028, σ = T/32 = 0.000861… down to 0.00086
    expect([r.threshold, r.sigma]).toEqual([0.028, 0.00086]);
    expect(r.threshold / s).toBeCloseTo(3.96, 2);
    expect(r.expectedCharges).toBeLessThan(0.1);
    expect(r.expectedCharges).toBe(expectedCharges({ sigma: r.sigma, threshold: r.threshold, gapSd: s, queries: 300 }));
    // the unrounded T is the smallest with fewer than 0.1: 2 % below it, more
    expect(expectedCharges({ sigma: (r.threshold * 0.98) / 32, threshold: r.threshold * 0.98 * (0.02755 / 0.028), gapSd: s, queries: 300 })).toBeGreaterThan(0.1);
  });

  it("rounds a setting for honest teams: two significant figures, T up and σ down", () => {
    expect(roundForHonestTeams({ sigma: 0.000861, threshold: 0.02755 })).toEqual({ sigma: 0.00086, threshold: 0.028 });
    expect(roundForHonestTeams({ sigma: 0.0012, threshold: 0.12 })).toEqual({ sigma: 0.0012, threshold: 0.12 });
    expect(roundForHonestTeams({ sigma: 0.0019999, threshold: 0.10001 })).toEqual({ sigma: 0.0019, threshold: 0.11 });
  });
});

describe("the public-first board row (lib/mechanism/board.ts)", () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 12, minute));
  const higher = "higher" as const;

  it("keeps the best public answer; a holdout answer shows only while there is none, the latest one", () => {
    let row: BoardRow | null = null;
    const steps: [string, number | null, number][] = [
      ["holdout", 0.6, 0],
      ["holdout", 0.55, 1],
      ["public", 0.7, 2],
      ["holdout", 0.9, 3],
      ["public", 0.68, 4],
      ["public", 0.7, 5],
      ["exhausted", null, 6],
      ["public", 0.72, 7],
    ];
    const shown = steps.map(([kind, value, minute]) => {
      row = nextBoardRow(row, { kind: kind as "public", value, at: at(minute) }, higher);
      return [row!.value, row!.kind, row!.at.getUTCMinutes()];
    });
    expect(shown).toEqual([
      [0.6, "holdout", 0],
      [0.55, "holdout", 1],
      [0.7, "public", 2],
      [0.7, "public", 2],
      [0.7, "public", 2],
      [0.7, "public", 2], // a tie keeps the earlier
      [0.7, "public", 2],
      [0.72, "public", 7],
    ]);
    expect(nextBoardRow(null, { kind: "public", value: 0.3, at: at(0) }, "lower")).toEqual({ value: 0.3, kind: "public", at: at(0) });
  });

  it("merges as if the answers had been one team's, and picks the default final submission by the same rule", () => {
    const pub = (value: number, minute: number): BoardRow => ({ value, kind: "public", at: at(minute) });
    const hold = (value: number, minute: number): BoardRow => ({ value, kind: "holdout", at: at(minute) });
    expect(mergeBoardRows(pub(0.7, 1), pub(0.75, 2), higher)).toEqual(pub(0.75, 2));
    expect(mergeBoardRows(hold(0.9, 5), pub(0.6, 1), higher)).toEqual(pub(0.6, 1));
    expect(mergeBoardRows(hold(0.9, 5), hold(0.5, 6), higher)).toEqual(hold(0.5, 6));
    expect(mergeBoardRows(null, hold(0.5, 6), higher)).toEqual(hold(0.5, 6));
    const answers = [
      { id: "a", kind: "holdout" as const, value: 0.95, at: at(1) },
      { id: "b", kind: "public" as const, value: 0.7, at: at(2) },
      { id: "c", kind: "public" as const, value: 0.71, at: at(3) },
      { id: "d", kind: "holdout" as const, value: 0.99, at: at(4) },
    ];
    expect(boardSubmission(answers, higher)).toBe("c"); // not the luckiest noisy answer, 0.99
    expect(
      boardSubmission(
        answers.filter((a) => a.kind === "holdout"),
        higher,
      ),
    ).toBe("d");
    expect(boardSubmission([], higher)).toBeNull();
  });
});

describe("what the board shows and how the experiments judge it", () => {
  it("a score shows the decimals its ± supports, else the competition's display precision, on every surface", () => {
    expect([0.12, 0.032, 0.0098, 0.0103, 0.35, 1e-9].map((bound) => scoreDecimals(bound, 5))).toEqual([2, 2, 3, 3, 1, 6]);
    expect([scoreDecimals(null, 5), scoreDecimals(0, 4), scoreDecimals(Infinity, 3)]).toEqual([5, 4, 3]);
    // The cases the Python client's test checks too (clients/python/tests/score_display.json).
    type Case = { score: number | null; bound: number | null; precision: number; decimals: number; text: string };
    const { cases } = JSON.parse(readFileSync("clients/python/tests/score_display.json", "utf8")) as { cases: Case[] };
    expect(cases).toHaveLength(13);
    for (const c of cases) expect([scoreDecimals(c.bound, c.precision), scoreText(c.score, c.bound, scoreDecimals(c.bound, c.precision))]).toEqual([c.decimals, c.text]);
  });

  it("Kendall's τ-b: 1 for the same order, −1 reversed, and the textbook value with ties", () => {
    expect(kendallTau([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTau([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    // 5 concordant, 1 discordant pair, no ties: (5 − 1)/6
    expect(kendallTau([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(4 / 6, 15);
    // x has one tied pair: (C − D)/√((6 − 1)(6 − 0)) with C = 5, D = 0 (scipy.stats.kendalltau gives 0.9128709)
    expect(kendallTau([1, 1, 2, 3], [1, 2, 3, 4])).toBeCloseTo(0.9128709, 6);
  });
});
