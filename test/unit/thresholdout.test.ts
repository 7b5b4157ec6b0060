import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { epsDpForBudget, epsPerHoldoutAnswer, privacySpent } from "@/lib/mechanism/accounting";
import { discreteLaplaceCdf, gridFor, snapToGrid } from "@/lib/mechanism/noise";
import { createStreams } from "@/lib/mechanism/rng";
import { answerHalfWidth, initThresholdout, stepThresholdout, type ThresholdoutParams, type ThresholdoutQuery, type ThresholdoutState } from "@/lib/mechanism/thresholdout";

const SECRET = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
// 1,000 holdout rows (Δ = 1/1000), no limit within these tests, answers to 8 decimals (finer than any noise here).
const PARAMS: ThresholdoutParams = { sigma: 0.01, threshold: 0.04, budget: 5, sensitivity: 0.001, maxQueries: 1_000_000, answerDecimals: 8 };

function run(params: ThresholdoutParams, team: string, queries: ThresholdoutQuery[], secret = SECRET) {
  const streams = createStreams(secret, team);
  let state: ThresholdoutState = initThresholdout(params, streams);
  const answers = queries.map((q) => {
    const step = stepThresholdout(params, state, q, streams);
    state = step.state;
    return step.answer;
  });
  return { answers, state };
}

const QUERIES: ThresholdoutQuery[] = Array.from({ length: 60 }, (_, i) => ({
  holdoutValue: 0.5 + 0.3 * Math.sin(i),
  publicValue: 0.5 + 0.3 * Math.sin(i) + (i % 3 === 0 ? 0.1 : 0.001),
}));

describe("Thresholdout (Zhao 2017, Algorithm 1)", () => {
  it("replays identically from the same secret", () => {
    expect(run(PARAMS, "team-a", QUERIES)).toEqual(run(PARAMS, "team-a", QUERIES));
  });

  it("a different secret gives different noise", () => {
    const a = run(PARAMS, "team-a", QUERIES).answers.filter((x) => x.kind === "holdout");
    const b = run(PARAMS, "team-a", QUERIES, randomBytes(32)).answers.filter((x) => x.kind === "holdout");
    expect(a.map((x) => x.value)).not.toEqual(b.map((x) => x.value));
  });

  it("different teams get independent noise (charge indicators uncorrelated)", () => {
    const params = { ...PARAMS, budget: 100_000 };
    const near: ThresholdoutQuery[] = Array.from({ length: 4000 }, () => ({ holdoutValue: 0.5, publicValue: 0.54 }));
    const x = run(params, "team-a", near).answers.map((a) => (a.kind === "holdout" ? 1 : 0));
    const y = run(params, "team-b", near).answers.map((a) => (a.kind === "holdout" ? 1 : 0));
    const mean = (v: number[]) => v.reduce((s, t) => s + t, 0) / v.length;
    const mx = mean(x);
    const my = mean(y);
    const cov = mean(x.map((xi, i) => (xi - mx) * (y[i] - my)));
    const corr = cov / Math.sqrt(mx * (1 - mx) * my * (1 - my));
    // Under independence corr·√N is ≈ N(0, 1); |z| < 4 fails with probability 6e-5.
    expect(Math.abs(corr) * Math.sqrt(near.length)).toBeLessThan(4);
    expect(mx).toBeGreaterThan(0.1);
  });

  it("never lets the budget go below 0 and answers ⊥ once it is spent", () => {
    const far: ThresholdoutQuery[] = Array.from({ length: 20 }, () => ({ holdoutValue: 0.9, publicValue: 0.1 }));
    const { answers, state } = run(PARAMS, "t", far);
    expect(answers.slice(0, 5).every((a) => a.kind === "holdout")).toBe(true);
    expect(answers.slice(5).every((a) => a.kind === "exhausted" && a.value === null)).toBe(true);
    expect(state.budget).toBe(0);
    expect(state.queries).toBe(20);
  });

  it("never charges a query with no gap when T is large", () => {
    const params = { ...PARAMS, sigma: 0.001, threshold: 0.5, budget: 1000 };
    const same: ThresholdoutQuery[] = Array.from({ length: 2000 }, (_, i) => ({ holdoutValue: (i % 100) / 100, publicValue: (i % 100) / 100 }));
    const { answers, state } = run(params, "t", same);
    expect(answers.every((a) => a.kind === "public")).toBe(true);
    expect(state.budget).toBe(1000);
    answers.forEach((a, i) => expect(a.value).toBe(snapToGrid(same[i].publicValue, gridFor(1 / 1000))));
  });

  it("always charges a huge gap", () => {
    const params = { ...PARAMS, sigma: 0.001, threshold: 0.01, budget: 2000 };
    const gap: ThresholdoutQuery[] = Array.from({ length: 2000 }, () => ({ holdoutValue: 1, publicValue: 0 }));
    expect(run(params, "t", gap).answers.every((a) => a.kind === "holdout")).toBe(true);
  });

  it("releases holdout answers in [0, 1], rounded to the answers' decimals", () => {
    const params = { ...PARAMS, sigma: 0.2, budget: 10_000, answerDecimals: 3 };
    const edge: ThresholdoutQuery[] = Array.from({ length: 3000 }, (_, i) => ({ holdoutValue: i % 2, publicValue: 1 - (i % 2) }));
    const values = run(params, "t", edge).answers.map((a) => a.value!);
    expect(values.some((v) => v === 0) && values.some((v) => v === 1)).toBe(true);
    for (const v of values) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
      expect(Math.round(v * 1000) / 1000).toBe(v);
    }
  });

  it("charges at the analytic rate for a fixed gap", () => {
    // First query of a fresh team: charged iff gap + γ > T + δ with γ ~ DLap(2σ), δ ~ DLap(σ) on the
    // grid. P = Σ_k P[δ = k g] · P[γ > T − gap + k g], summed exactly over the grid.
    const grid = gridFor(PARAMS.sensitivity);
    const gap = 0.05;
    const t = Math.round(PARAMS.threshold / grid);
    const u = t - Math.round(gap / grid);
    let analytic = 0;
    const reach = Math.ceil((60 * PARAMS.sigma) / grid);
    for (let k = -reach; k <= reach; k++) {
      const pDelta = discreteLaplaceCdf(k, PARAMS.sigma, grid) - discreteLaplaceCdf(k - 1, PARAMS.sigma, grid);
      analytic += pDelta * (1 - discreteLaplaceCdf(u + k, 2 * PARAMS.sigma, grid));
    }
    const teams = 20_000;
    let charged = 0;
    for (let i = 0; i < teams; i++) {
      const { answers } = run(PARAMS, `team-${i}`, [{ holdoutValue: 0.5, publicValue: 0.5 + gap }]);
      if (answers[0].kind === "holdout") charged++;
    }
    const se = Math.sqrt((analytic * (1 - analytic)) / teams);
    // |error| < 4.5 standard errors: a correct mechanism fails this with probability 7e-6.
    expect(Math.abs(charged / teams - analytic)).toBeLessThan(4.5 * se);
    expect(analytic).toBeGreaterThan(0.5);
    expect(analytic).toBeLessThan(0.8);
  });

  it("state is plain JSON", () => {
    const { state } = run(PARAMS, "t", QUERIES);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it("rejects values outside [0, 1] with a message", () => {
    const streams = createStreams(SECRET, "t");
    const state = initThresholdout(PARAMS, streams);
    expect(() => stepThresholdout(PARAMS, state, { holdoutValue: 1.2, publicValue: 0.5 }, streams)).toThrow("holdout value must be in [0, 1], got 1.2");
  });
});

describe("privacy accounting", () => {
  const unit = (1 / 1000 + 2 ** -20) / 0.04; // (Δ_Q + g)/(4σ) at σ = 0.01, n = 1000 (g = 2^⌊log2(1/1024000)⌋ = 2^-20)

  it("one holdout answer costs 9(Δ + g)/(4σ); a budget of B₀ 9·B₀ units", () => {
    expect(epsPerHoldoutAnswer(0.01, 1 / 1000)).toBeCloseTo(9 * unit, 15);
    expect(epsDpForBudget(5, 0.01, 1 / 1000)).toBeCloseTo(45 * unit, 15);
  });

  it("sums over teams: 9 units per holdout answer, 8 per open threshold epoch (an absorbed team's too)", () => {
    const spent = privacySpent(
      new Map([
        ["a", { holdoutAnswers: 2, openEpochs: 0 }],
        ["b", { holdoutAnswers: 3, openEpochs: 1 }],
        ["c", { holdoutAnswers: 0, openEpochs: 0 }],
        ["d", { holdoutAnswers: 1, openEpochs: 2 }],
      ]),
      0.01,
      1 / 1000,
    );
    expect(spent.perTeam.get("a")).toBeCloseTo(18 * unit, 15);
    expect(spent.perTeam.get("b")).toBeCloseTo(35 * unit, 15);
    expect(spent.perTeam.get("c")).toBe(0);
    expect(spent.perTeam.get("d")).toBeCloseTo(25 * unit, 15);
    expect(spent.total).toBeCloseTo(78 * unit, 15);
  });
});

describe("the query cap m", () => {
  it('answers "limit" (no score, said apart from a spent budget) from query m + 1 on, spending nothing', () => {
    const params = { ...PARAMS, budget: 100, maxQueries: 3 };
    const { answers, state } = run(params, "team-m", QUERIES.slice(0, 6));
    expect(answers.slice(0, 3).every((a) => a.kind === "public" || a.kind === "holdout")).toBe(true);
    expect(answers.slice(3)).toEqual([0, 1, 2].map(() => ({ kind: "limit", value: null })));
    expect(state.queries).toBe(6);
    const spentInFirstThree = answers.slice(0, 3).filter((a) => a.kind === "holdout").length;
    expect(state.budget).toBe(100 - spentInFirstThree);
  });
});

describe("the noise of a holdout answer", () => {
  it("95 % half-width: 4σ ln 20 on a fine grid, exact for the discrete Laplace", () => {
    const w = answerHalfWidth({ sigma: 0.01, sensitivity: 1 / 10_000 });
    expect(w).toBeCloseTo(0.04 * Math.log(20), 5); // 0.119829…
    const grid = gridFor(1 / 10_000);
    const inside = (x: number) => discreteLaplaceCdf(Math.round(x / grid), 0.04, grid) - discreteLaplaceCdf(-Math.round(x / grid) - 1, 0.04, grid);
    expect(inside(w)).toBeGreaterThanOrEqual(0.95);
    expect(inside(w - grid)).toBeLessThan(0.95);
  });
});
