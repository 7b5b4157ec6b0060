import { epsDpForBudget } from "../mechanism/accounting";
import { calibrateEpsBdp, calibrateEpsDp } from "./models";
import { largestCountBudget, type Setting as PlanSetting } from "./planner";
import { concentrationFor, concentrationN, deltaOf, maxBudget, type Setting, targetEpsBdp, theorem2Parameters, type GuaranteeInput } from "./theorem2";

export type Point = { x: number; y: number };

/**
 * The budget each proof allows against τ for the organizer's β, m and c: Theorem 2's B_max (with its
 * own σ and T) and the description-length count's (at the recommended σ and T, honest.ts).
 */
export function budgetByTolerance(
  setting: PlanSetting,
  input: Omit<GuaranteeInput, "tolerance">,
  recommended: { sigma: number; threshold: number },
  taus: number[],
): { bdp: Point[]; count: Point[] } {
  return {
    bdp: taus.map((tau) => ({ x: tau, y: maxBudget(setting, { ...input, tolerance: tau }).budget })),
    count: taus.map((tau) => ({ x: tau, y: largestCountBudget(setting, recommended, input, tau) })),
  };
}

/** ε_BDP that a budget B₀ costs at noise σ (forward map of ε_DP = 10 B₀ (Δ + g)/(4σ), accounting.ts). */
export function epsBdpByNoise(setting: Setting, budget: number, sigmas: number[]): Point[] {
  return sigmas.map((sigma) => ({ x: sigma, y: calibrateEpsBdp(setting.model, setting.n, epsDpForBudget(budget, sigma, deltaOf(setting))).value }));
}

/** epsDp is null where a calibration does not apply (Lemma 4 needs a reversible chain and n ≥ 2d). */
export type BudgetByCalibration = { label: string; budget: number; epsDp: number | null }[];

/**
 * B_max at the organizer's τ under each calibration side by side: as if rows were independent,
 * and each valid calibration of the model (for a Markov chain: Lemma 4 and the exact quilts), so
 * the organizer sees what the correlation costs and what the exact search wins back.
 */
export function budgetByCalibration(setting: Setting, input: GuaranteeInput): BudgetByCalibration {
  const t = theorem2Parameters(input);
  const perBudget = epsDpForBudget(1, t.sigma, deltaOf(setting));
  const budget = (epsDp: number | null, affordable: boolean) => (epsDp === null || !affordable ? 0 : Math.min(input.maxQueries, Math.floor(epsDp / perBudget)));
  const independent = t.tauPrime / 3;
  const rows: BudgetByCalibration = [
    {
      label: "As if independent",
      epsDp: independent,
      budget: budget(independent, concentrationFor({ ...setting, model: { kind: "independent" } })!.size >= concentrationN(t.tauPrime, t.betaPrime)),
    },
  ];
  if (setting.model.kind === "independent") return rows;
  const target = targetEpsBdp(setting, t.tauPrime);
  if (!target) return rows;
  const { epsBdp, nEff } = target;
  const affordable = nEff >= concentrationN(t.tauPrime, t.betaPrime);
  const { byMethod } = calibrateEpsDp(setting.model, setting.n, epsBdp);
  const labels: Record<string, string> = { closedForm: "Lemma 4 (closed form)", exactQuilts: "Exact quilts", groups: "Groups", maxInfluence: "Max-influence bound" };
  for (const [method, epsDp] of Object.entries(byMethod)) rows.push({ label: labels[method] ?? method, epsDp, budget: budget(epsDp, affordable) });
  return rows;
}
