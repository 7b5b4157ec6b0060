import { describe, expect, it } from "vitest";
import seedrandom from "seedrandom";
import { deviationBound, descriptionLengthBound, lnChoose, lnPrefixTranscripts } from "@/lib/calibration/description-length";
import { honestGapSd, recommendSettings } from "@/lib/calibration/honest";
import { planPractical, teamsShare } from "@/lib/calibration/planner";
import { bernoulliKl, boundSettingFor, prefixNats, promiseByChecks, scoreInterval, type ScoreBoundSetting, transcriptPlaces, worstHalfWidth } from "@/lib/calibration/score-bounds";
import { answerDecimalsFor } from "@/lib/mechanism/thresholdout";
import { finalInterval, finalNats, tiedWith } from "@/lib/calibration/finals";

/** The bounds of an accuracy competition with n rows in each split at the recommended settings, m = 300, B₀ = 20. */
function recommendedAt(n: number, capped = false): ScoreBoundSetting {
  const { sigma, threshold } = recommendSettings({ gapSd: honestGapSd(n, n), queries: 300 });
  return boundSettingFor(
    { concentration: { size: n, kl: true }, maxQueries: 300, decimals: answerDecimalsFor(sigma), capped, sigma, threshold, sensitivity: 1 / n, beta: 0.05 },
    20,
  );
}

describe("the data-dependent allocation of β (Rogers et al. 2020; docs/mechanism.md §2.8)", () => {
  it("sums to at most β_dev over every query index and prefix transcript: Σᵢ Σ_f C(i−1, f)·R^f·δ(i, f) ≤ β_dev", () => {
    for (const capped of [false, true]) {
      const setting = { maxQueries: 60, decimals: 1, capped };
      let total = 0;
      for (let i = 1; i <= 60; i++) {
        for (let f = 0; f <= Math.min(i - 1, 7); f++) {
          // δ(i, f)/β_dev = e^{−prefixNats}; the prefixes with f holdout answers number C(i−1, f)·R^f, (m + 1) times over with a cap
          total += Math.exp(-prefixNats(setting, { index: i, prior: f, budget: 7 }) + lnChoose(i - 1, f) + f * Math.log(11) + (capped ? Math.log(61) : 0));
        }
      }
      expect(total).toBeLessThanOrEqual(1 + 1e-12);
      // … and it is spent: each i gets (min(i − 1, B) + 1)/(m(B + 1)) of it
      expect(total).toBeGreaterThan(0.9);
    }
  });

  it("refuses a place the count does not cover", () => {
    const setting = recommendedAt(10_000);
    expect(() => scoreInterval(setting, { kind: "public", value: 0.5, index: 301, prior: 0, budget: 20 })).toThrow("from 1 to m = 300, got 301");
    expect(() => scoreInterval(setting, { kind: "public", value: 0.5, index: 3, prior: 3, budget: 20 })).toThrow("from 0 to 2, got 3");
  });

  it("inverts Chernoff–KL at the released value: the ends satisfy N·kl(q‖p) = ln(2/δ), inside Hoeffding's interval", () => {
    const setting = recommendedAt(10_000);
    const score = { kind: "public" as const, value: 0.8, index: 300, prior: 0, budget: 20 };
    const { lower, upper } = scoreInterval(setting, score);
    const nats = Math.log(2 / (0.05 * setting.split.deviation)) + prefixNats(setting, score);
    const slack = worstHalfWidth(setting, score) - Math.sqrt(nats / (2 * 10_000));
    expect(10_000 * bernoulliKl(0.8 + slack, upper)).toBeCloseTo(nats, 6);
    expect(10_000 * bernoulliKl(0.8 - slack, lower)).toBeCloseTo(nats, 6);
    expect(upper - 0.8).toBeLessThan(worstHalfWidth(setting, score));
    expect(0.8 - lower).toBeLessThan(worstHalfWidth(setting, score));
  });

  it("a fixed query's interval covers its truth at least 1 − δ of the time (simulated, binomial holdout values)", () => {
    // One query on N = 400 rows with truth p = 0.85; no release noise (slack 0). Empirical miss rate vs δ = 0.2.
    const random = seedrandom("coverage");
    const N = 400;
    const p = 0.85;
    const nats = Math.log(2 / 0.2);
    let misses = 0;
    const trials = 4000;
    for (let t = 0; t < trials; t++) {
      let hits = 0;
      for (let k = 0; k < N; k++) if (random() < p) hits++;
      const q = hits / N;
      if (N * bernoulliKl(q, p) > nats) misses++;
    }
    // Chernoff: at most δ = 0.2 (the truth is ≈ 0.08 here); 4.5 standard errors above 0.2 fails with probability 7e-6 for a correct bound.
    expect(misses / trials).toBeLessThan(0.2 + 4.5 * Math.sqrt((0.2 * 0.8) / trials));
  });
});

describe("what the bounds are at real sizes (m = 300, B₀ = 20, recommended settings, accuracy 0.8)", () => {
  it("an uncharged team's public score: ±0.074 / 0.023 / 0.0072 at 10⁴ / 10⁵ / 10⁶ holdout rows (the wider side of its interval); after all 20 checks ±0.16 / 0.053 / 0.017, the count's worst case", () => {
    const half = (n: number, prior: number) => {
      const { lower, upper } = scoreInterval(recommendedAt(n), { kind: "public", value: 0.8, index: 300, prior, budget: 20 });
      return Math.max(upper - 0.8, 0.8 - lower);
    };
    expect([1e4, 1e5, 1e6].map((n) => Number(half(n, 0).toPrecision(2)))).toEqual([0.074, 0.023, 0.0072]);
    const worst = [1e4, 1e5, 1e6].map((n) => worstHalfWidth(recommendedAt(n), { kind: "public", index: 300, prior: 20, budget: 20 }));
    expect(worst.map((w) => Number(w.toPrecision(2)))).toEqual([0.16, 0.053, 0.017]);
    for (const [k, n] of [1e4, 1e5, 1e6].entries()) {
      const { sigma, threshold } = recommendSettings({ gapSd: honestGapSd(n, n), queries: 300 });
      const plan = planPractical({ n, publicRows: n, model: { kind: "independent" } }, { sigma, threshold, budget: 20, beta: 0.05, maxQueries: 300 });
      // within 2 % of the planner's worst case (its split of β differs)
      expect(Math.abs(worst[k] / plan.guarantee.tolerance! - 1)).toBeLessThan(0.02);
    }
  });

  it("states the per-team promise by holdout checks used: 0, 1, 5 and B₀, growing", () => {
    const promise = promiseByChecks(recommendedAt(1e5), 20);
    expect(promise.map((p) => p.checks)).toEqual([0, 1, 5, 20]);
    expect(promise[0].bound).toBeLessThanOrEqual(0.03);
    expect(promise.map((p) => p.bound)).toEqual([...promise.map((p) => p.bound)].sort((a, b) => a - b));
  });
});

describe("a query's place in its team's transcript", () => {
  it("counts every query before it, and the holdout answers among them", () => {
    expect(transcriptPlaces(["public", "holdout", "public", "exhausted", "holdout", "limit"])).toEqual([
      { index: 1, prior: 0 },
      { index: 2, prior: 0 },
      { index: 3, prior: 1 },
      { index: 4, prior: 1 },
      { index: 5, prior: 1 },
      { index: 6, prior: 2 },
    ]);
  });
});

describe("figures the transcript's own count misses (docs/mechanism.md §2.7)", () => {
  const practical = { sigma: 0.0005, threshold: 0.016, budget: 20, beta: 0.05, maxQueries: 300 };

  it("a cap on holdout answers over all teams adds ln(m + 1) nats to a team's count: where its answers turned capped", () => {
    const plain = planPractical({ n: 1e6, model: { kind: "independent" } }, practical);
    const capped = planPractical({ n: 1e6, model: { kind: "independent" }, holdoutCap: 500 }, practical);
    const lnCount = lnPrefixTranscripts({ queries: 300, holdoutAnswers: 20, values: 10 ** plain.answerDecimals + 1 });
    expect(plain.guarantee.byProof.descriptionLength!.deviation).toBeCloseTo(deviationBound(lnCount, 1e6, 0.05 / 3), 12);
    expect(capped.guarantee.byProof.descriptionLength!.deviation).toBeCloseTo(deviationBound(lnCount + Math.log(301), 1e6, 0.05 / 3), 12);
  });

  it("the competition-wide figure holds for whatever number of teams joins: M teams spend β·6/(π²M²), no floor of 1,000 teams", () => {
    expect(teamsShare(1)).toBeCloseTo(6 / Math.PI ** 2, 15);
    // Σ_M 6/(π²M²) = 1
    let sum = 0;
    for (let m = 1; m <= 1_000_000; m++) sum += teamsShare(m);
    expect(sum).toBeLessThan(1);
    expect(sum).toBeGreaterThan(1 - 1e-6);
    for (const teams of [12, 1000]) {
      const plan = planPractical({ n: 1e6, model: { kind: "independent" }, holdoutCap: 200, teams }, practical);
      const expected = descriptionLengthBound({
        sensitivity: 1e-6,
        nEff: 1e6,
        queries: teams * 300,
        budget: 200,
        epochs: teams * 21,
        decimals: plan.answerDecimals,
        sigma: practical.sigma,
        threshold: practical.threshold,
        beta: 0.05 * teamsShare(teams),
      }).tolerance;
      expect(plan.competition.teams).toBe(teams);
      expect(plan.competition.tolerance).toBeCloseTo(expected, 12);
    }
  });
});

describe("the final standings' bounds and ties (docs/mechanism.md §2.9)", () => {
  const input = { concentration: { size: 100_000, kl: false }, teams: 1000, maxQueries: 300, holdoutAnswers: 40, decimals: 4, beta: 0.05 };

  it("count the whole competition's queries at its teams and holdout answers, each with its share of β", () => {
    const share = (k: number) => 6 / (Math.PI ** 2 * k ** 2);
    const lnCount = lnPrefixTranscripts({ queries: 300_000, holdoutAnswers: 40, values: 10_001 });
    expect(finalNats(input)).toBeCloseTo(lnCount + Math.log(2 / (0.05 * share(1000) * share(41))), 10);
    // Hoeffding's form (a non-KL setting): the final value ± √(nats / (2N))
    const { lower, upper } = finalInterval(input, 0.8);
    expect(upper - 0.8).toBeCloseTo(Math.sqrt(finalNats(input) / 200_000), 12);
    expect(0.8 - lower).toBeCloseTo(upper - 0.8, 12);
    // A thousand honest teams spending 40 holdout answers: about ±0.06 at 10⁵ rows.
    expect(upper - 0.8).toBeGreaterThan(0.05);
    expect(upper - 0.8).toBeLessThan(0.07);
    // More teams, more holdout answers: wider.
    expect(finalInterval({ ...input, holdoutAnswers: 400 }, 0.8).upper).toBeGreaterThan(upper);
  });

  it("ties the teams whose intervals overlap", () => {
    const ties = tiedWith([
      { id: "a", lower: 0.7, upper: 0.8 },
      { id: "b", lower: 0.75, upper: 0.85 },
      { id: "c", lower: 0.81, upper: 0.9 },
      { id: "d", lower: 0.5, upper: 0.6 },
    ]);
    expect(Object.fromEntries(ties)).toEqual({ a: ["b"], b: ["a", "c"], c: ["b"], d: [] });
  });
});
