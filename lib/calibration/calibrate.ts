import { type ByMethod, calibrateEpsBdp, calibrateEpsDp } from "./models";
import { type Plan, planGuarantee, planPractical, planRecommended, type Setting } from "./planner";
import { resolveCorrelation } from "./resolve";
import type { CalibrationRequest, MechanismInput } from "../validation/calibration";

/** Defaults when no competition supplies them (docs/mechanism.md §2.4: β and m; c = ½). */
export const DEFAULT_BETA = 0.05;
export const DEFAULT_MAX_QUERIES = 100;

/** `exhaustive: false` when a quilt search stopped at its work guard (the value is valid but conservative). */
export type CalibrationAnswer = { epsDp: number; byMethod: ByMethod; exhaustive: boolean } | { epsBdp: number; byMethod: ByMethod; exhaustive: boolean } | Plan;

/**
 * Answers a calibration question of docs/api.md (`POST /api/v1/calibrate`, `npm run calibrate`):
 * ε_BDP → ε_DP (inverse map), ε_DP → ε_BDP (forward map), or a mechanism → the planner's answer.
 * A model without its data (groups without maxGroupSize, markov without a transition matrix) is
 * rejected (resolve.ts): only a competition with a solution can fill those in.
 */
export function answerCalibration(question: CalibrationRequest): CalibrationAnswer {
  const n = question.n;
  const { model } = resolveCorrelation(question.model, n, null);
  if (question.epsBdp !== undefined) {
    const r = calibrateEpsDp(model, n, question.epsBdp);
    return { epsDp: r.value, byMethod: r.byMethod, exhaustive: r.exhaustive };
  }
  if (question.epsDp !== undefined) {
    const r = calibrateEpsBdp(model, n, question.epsDp);
    return { epsBdp: r.value, byMethod: r.byMethod, exhaustive: r.exhaustive };
  }
  const { publicRows, teams, holdoutCap, metric } = question;
  // ROC AUC with p positive rows of n: Δ = 1/min(p, n − p), N = p(n − p)/n, not a mean (docs/mechanism.md §4).
  const shape =
    metric?.name === "roc-auc"
      ? { sensitivity: 1 / Math.min(metric.positives, n - metric.positives), concentration: (metric.positives * (n - metric.positives)) / n, additive: false }
      : {};
  return planMechanism({ n, model, publicRows, teams, holdoutCap, ...shape }, question.mechanism);
}

/** The planner for any mode, with the defaults of docs/mechanism.md §2.4 for β, m and c. */
export function planMechanism(setting: Setting, mechanism: MechanismInput): Plan {
  const maxQueries = mechanism.maxQueries ?? DEFAULT_MAX_QUERIES;
  switch (mechanism.mode) {
    case "guarantee":
      return planGuarantee(setting, { tolerance: mechanism.tolerance, beta: mechanism.beta, maxQueries, split: mechanism.split });
    case "recommended":
      return planRecommended(setting, { budget: mechanism.budget, beta: mechanism.beta ?? DEFAULT_BETA, maxQueries });
    case "practical":
      return planPractical(setting, { ...mechanism, beta: mechanism.beta ?? DEFAULT_BETA, maxQueries });
  }
}
