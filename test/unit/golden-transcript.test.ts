import { describe, expect, it } from "vitest";
import { createStreams } from "@/lib/mechanism/rng";
import { initThresholdout, remeasureHoldout, stepThresholdout, type ThresholdoutParams } from "@/lib/mechanism/thresholdout";

// A golden transcript of the mechanism. Every stored competition's audit (lib/server/scoring/audit.ts)
// replays its answers from its secret through these exact functions: HMAC-keyed seedrandom streams
// (rng.ts), discrete Laplace noise on the grid (noise.ts) and Algorithm 1 (thresholdout.ts). Any
// change that alters one draw (the HMAC input's layout, a stream's purpose name, the sampler, the
// grid, the order of draws) would still pass every statistical test, yet every audit of every
// competition run before it would report mismatches. These values were recorded once; if this test
// fails, the change breaks stored audits and needs a versioned mechanism, not a new recording.
// Two versions are recorded: competitions published before holdout answers were rounded (no
// answerDecimals; their answers past m were stored as "exhausted", which the audit takes as the same ⊥
// as today's "limit"), and competitions that round them (answerDecimals fixed at publishing).

const secret = Uint8Array.from({ length: 32 }, (_, i) => i);
const streams = createStreams(secret, "00000000-0000-4000-8000-000000000001");
const params: ThresholdoutParams = { mode: "thresholdout", sigma: 0.01, threshold: 0.04, budget: 3, holdoutSize: 1000, maxQueries: 8 };

describe("the mechanism's golden transcript (audit replay)", () => {
  it("draws the same raw stream values", () => {
    expect([1, 2].map((i) => streams(i, "answer")())).toEqual([0.8260409423667322, 0.40563395955420545]);
  });

  it("replays one team's nine queries exactly: answers, kinds, budgets and noisy thresholds", () => {
    let state = initThresholdout(params, streams);
    expect(state).toEqual({ budget: 3, noisyThreshold: 0.023303985595703125, queries: 0 });
    const queries: [number, number][] = [
      [0.7, 0.71],
      [0.72, 0.8],
      [0.73, 0.74],
      [0.6, 0.9],
      [0.75, 0.75],
      [0.5, 0.95],
      [0.76, 0.77],
      [0.77, 0.99],
      [0.78, 0.78],
    ];
    const transcript = queries.map(([holdoutValue, publicValue]) => {
      const step = stepThresholdout(params, state, { holdoutValue, publicValue }, streams);
      state = step.state;
      return [step.answer.kind, step.answer.value, state.budget, state.noisyThreshold];
    });
    expect(transcript).toEqual([
      ["public", 0.7100000381469727, 3, 0.023303985595703125],
      ["holdout", 0.7289028167724609, 2, 0.02217864990234375],
      ["public", 0.7399997711181641, 2, 0.02217864990234375],
      ["holdout", 0.5279321670532227, 1, 0.03845405578613281],
      ["public", 0.75, 1, 0.03845405578613281],
      ["holdout", 0.4576301574707031, 0, 0.025069236755371094],
      ["exhausted", null, 0, 0.025069236755371094],
      ["exhausted", null, 0, 0.025069236755371094],
      ["limit", null, 0, 0.025069236755371094],
    ]);
  });

  it("with answerDecimals, the same draws and holdout answers rounded to that many decimals", () => {
    const rounded = { ...params, answerDecimals: 3 };
    let state = initThresholdout(rounded, streams);
    const answers = [
      [0.7, 0.71],
      [0.72, 0.8],
      [0.6, 0.9],
    ].map(([holdoutValue, publicValue]) => {
      const step = stepThresholdout(rounded, state, { holdoutValue, publicValue }, streams);
      state = step.state;
      return step.answer;
    });
    expect(answers).toEqual([
      { kind: "public", value: 0.7100000381469727 },
      { kind: "holdout", value: 0.729 },
      { kind: "holdout", value: 0.585 },
    ]);
  });

  it("re-measures the leaderboard score from its own stream, the same each time", () => {
    expect([1, 2, 3].map((i) => remeasureHoldout(params, i, 0.7, streams))).toEqual([0.7326898574829102, 0.6378259658813477, 0.6796112060546875]);
  });
});
