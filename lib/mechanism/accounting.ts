import { check } from "./errors";
import { gridFor } from "./noise";

/**
 * DP cost of one holdout answer of Algorithm 1 (Zhao 2017 §4; Dwork et al. 2015):
 * Δ (1/σ + 1/(4σ) + 2/(2σ)) = 9Δ / (4σ), with Δ = Δ_Q + g for the grid g of SPEC §2.3 (snapping to
 * the grid can move a statistic by up to g/2 on each of two neighbouring datasets).
 * Below-threshold answers cost nothing.
 * @param sigma σ in metric units; @param holdoutSize n rows (Δ_Q = 1/n)
 */
export function epsPerHoldoutAnswer(sigma: number, holdoutSize: number): number {
  check(sigma > 0, `sigma must be positive, got ${sigma}`);
  check(holdoutSize >= 1, `holdout size must be ≥ 1, got ${holdoutSize}`);
  const sensitivity = 1 / holdoutSize;
  return (9 * (sensitivity + gridFor(sensitivity))) / (4 * sigma);
}

/** ε_DP of the whole mechanism for a team with budget B₀: B₀ · 9(Δ_Q + g)/(4σ) (SPEC §2.2). */
export function epsDpForBudget(budget: number, sigma: number, holdoutSize: number): number {
  return budget * epsPerHoldoutAnswer(sigma, holdoutSize);
}

export type PrivacySpent = { perTeam: Map<string, number>; total: number };

/**
 * Privacy spent so far: a team that received k holdout answers spent k · 9(Δ_Q + g)/(4σ).
 * All teams query the same holdout, so by basic composition the total is the sum over teams.
 * @param holdoutAnswers team id → number of holdout answers released to it
 */
export function privacySpent(holdoutAnswers: Map<string, number>, sigma: number, holdoutSize: number): PrivacySpent {
  const each = epsPerHoldoutAnswer(sigma, holdoutSize);
  const perTeam = new Map<string, number>();
  let total = 0;
  for (const [team, k] of holdoutAnswers) {
    perTeam.set(team, k * each);
    total += k * each;
  }
  return { perTeam, total };
}
