import { check } from "../mechanism/errors";
import { type ByMethod, type CorrelationModel, calibrateEpsBdp, calibrateEpsDp } from "./models";
import { type Plan, planGuarantee, planPractical } from "./planner";

/** Defaults when no competition supplies them (docs/mechanism.md §2.4: β and m; c = ½). */
export const DEFAULT_BETA = 0.05;
export const DEFAULT_MAX_QUERIES = 100;

type ApiModel =
  | { kind: "independent" }
  | { kind: "groups"; maxGroupSize?: number }
  | { kind: "markov"; transition?: number[][]; initial?: number[] | "stationary"; fit?: { alpha: number }; chains?: number[] }
  | { kind: "max-influence"; bound: number };

type ApiMechanism =
  | { mode: "guarantee"; tolerance: number; beta: number; maxQueries?: number; split?: number }
  | { mode: "practical"; sigma: number; threshold: number; budget: number; beta?: number; maxQueries?: number };

export type CalibrationQuestion =
  { n: number; model: ApiModel; epsBdp: number } | { n: number; model: ApiModel; epsDp: number } | { n: number; model: ApiModel; mechanism: ApiMechanism };

/** `exhaustive: false` when a quilt search stopped at its work guard (the value is valid but conservative). */
export type CalibrationAnswer = { epsDp: number; byMethod: ByMethod; exhaustive: boolean } | { epsBdp: number; byMethod: ByMethod; exhaustive: boolean } | Plan;

/**
 * Answers a calibration question of docs/api.md (`POST /api/v1/calibrate`, `npm run calibrate`):
 * ε_BDP → ε_DP (inverse map), ε_DP → ε_BDP (forward map), or a mechanism → the planner's answer.
 * A model without its data (groups without maxGroupSize, markov without a transition matrix) is
 * rejected here: only a competition with a solution can fill those in.
 */
export function answerCalibration(question: CalibrationQuestion): CalibrationAnswer {
  const model = resolveModel(question.model);
  const n = question.n;
  if ("epsBdp" in question) {
    const r = calibrateEpsDp(model, n, question.epsBdp);
    return { epsDp: r.value, byMethod: r.byMethod, exhaustive: r.exhaustive };
  }
  if ("epsDp" in question) {
    const r = calibrateEpsBdp(model, n, question.epsDp);
    return { epsBdp: r.value, byMethod: r.byMethod, exhaustive: r.exhaustive };
  }
  return planMechanism({ n, model }, question.mechanism);
}

/** The planner for either mode, with the defaults of docs/mechanism.md §2.4 for β, m and c. */
export function planMechanism(setting: { n: number; model: CorrelationModel }, mechanism: ApiMechanism): Plan {
  const maxQueries = mechanism.maxQueries ?? DEFAULT_MAX_QUERIES;
  if (mechanism.mode === "guarantee") {
    return planGuarantee(setting, { tolerance: mechanism.tolerance, beta: mechanism.beta, maxQueries, split: mechanism.split });
  }
  return planPractical(setting, { ...mechanism, beta: mechanism.beta ?? DEFAULT_BETA, maxQueries });
}

function resolveModel(model: ApiModel): CorrelationModel {
  switch (model.kind) {
    case "groups":
      check(model.maxGroupSize !== undefined, "model.maxGroupSize is required without a solution to read the group column from");
      return { kind: "groups", maxGroupSize: model.maxGroupSize };
    case "markov":
      check(model.transition !== undefined, "model.transition is required without a solution to fit it from");
      return { kind: "markov", transition: model.transition, initial: model.initial, chains: model.chains };
    default:
      return model;
  }
}
