import { describe, expect, it } from "vitest";
import { createStreams } from "@/lib/mechanism/rng";
import { initThresholdout, stepThresholdout, type ThresholdoutParams } from "@/lib/mechanism/thresholdout";

// A golden transcript of the mechanism. Every stored competition's audit (lib/server/scoring/audit.ts)
// replays its answers from its secret through these exact functions: HMAC-keyed seedrandom streams
// (rng.ts), discrete Laplace noise on the grid (noise.ts) and Algorithm 1 (thresholdout.ts). Any
// change that alters one draw (the HMAC input's layout, a stream's purpose name, the sampler, the
// grid, the order of draws) would still pass every statistical test, yet every audit of every
// competition run before it would report mismatches. These values were recorded once; if this test
// fails, the change breaks stored audits and needs a versioned mechanism, not a new recording.
// (Recorded when holdout answers were still released unrounded: the values below are those draws,
// rounded to the answers' 3 decimals; every draw, kind, budget and threshold is as recorded.)

const secret = Uint8Array.from({ length: 32 }, (_, i) => i);
const streams = createStreams(secret, "00000000-0000-4000-8000-000000000001");
const params: ThresholdoutParams = { sigma: 0.01, threshold: 0.04, budget: 3, sensitivity: 1 / 1000, maxQueries: 8, answerDecimals: 3 };

describe("the mechanism's golden transcript (audit replay)", () => {
  it("draws the same raw stream values", () => {
    expect([1, 2].map((i) => streams(i, "answer")())).toEqual([0.8260409423667322, 0.40563395955420545]);
  });

  it("replays one team's nine queries exactly: answers, kinds, budgets and noisy thresholds", () => {
    let state = initThresholdout(params, streams);
    expect(state).toEqual({ budget: 3, noisyThreshold: 0.023303985595703125, queries: 0, absorbed: 0 });
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
      ["holdout", 0.729, 2, 0.02217864990234375],
      ["public", 0.7399997711181641, 2, 0.02217864990234375],
      ["holdout", 0.528, 1, 0.03845405578613281],
      ["public", 0.75, 1, 0.03845405578613281],
      ["holdout", 0.458, 0, 0.025069236755371094],
      ["exhausted", null, 0, 0.025069236755371094],
      ["exhausted", null, 0, 0.025069236755371094],
      ["limit", null, 0, 0.025069236755371094],
    ]);
  });
});
