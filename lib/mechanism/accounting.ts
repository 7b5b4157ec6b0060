import { check } from "./errors";
import { gridFor } from "./noise";

/**
 * Privacy accounting of Algorithm 1 (Zhao 2017 §4; Dwork et al. 2015), in units of u = Δ/(4σ),
 * Δ = Δ_Q + g for the grid g of docs/mechanism.md §2.3 (snapping to the grid can move a statistic by
 * up to g/2 on each of two neighbouring datasets):
 *   - one threshold epoch (T̂ ~ Lap(σ) and the comparisons γ ~ Lap(2σ)):  Δ/σ + 2Δ/(2σ) = 8u,
 *   - the holdout answer that ends it (Lap(4σ)):                             Δ/(4σ)       = 1u.
 * So a holdout answer costs 9u (the classic 9Δ/(4σ)) and a team allowed B₀ holdout answers at most
 * 9·B₀·u. Below-threshold answers cost nothing beyond the epoch they fall in; rounding a released
 * answer is post-processing and costs nothing.
 */
export const UNITS = { epoch: 8, answer: 1 } as const;

/**
 * u = (Δ_Q + g)/(4σ): the cost of one Lap(4σ) release.
 * @param sigma σ in metric units (> 0); @param sensitivity Δ_Q, 1/n for a mean over n rows (docs/mechanism.md §4)
 */
export function epsUnit(sigma: number, sensitivity: number): number {
  check(sigma > 0, `sigma must be positive, got ${sigma}`);
  check(sensitivity > 0 && sensitivity <= 1, `sensitivity must be in (0, 1], got ${sensitivity}`);
  return (sensitivity + gridFor(sensitivity)) / (4 * sigma);
}

/** DP cost of one holdout answer with its threshold epoch: 9(Δ_Q + g)/(4σ). */
export function epsPerHoldoutAnswer(sigma: number, sensitivity: number): number {
  return (UNITS.epoch + UNITS.answer) * epsUnit(sigma, sensitivity);
}

/** ε_DP of the whole mechanism for one team with budget B₀: B₀ holdout answers, B₀ · 9(Δ_Q + g)/(4σ). */
export function epsDpForBudget(budget: number, sigma: number, sensitivity: number): number {
  return budget * epsPerHoldoutAnswer(sigma, sensitivity);
}

/** What one team has received so far. */
export type TeamReleases = {
  holdoutAnswers: number;
  /** threshold epochs that have answered a query below the threshold and not ended with a holdout answer: the team's own, and those of teams it absorbed */
  openEpochs: number;
};

export type PrivacySpent = { perTeam: Map<string, number>; total: number };

/**
 * Privacy spent so far: (9k + 8·[open epochs]) (Δ_Q + g)/(4σ) for a team with k holdout
 * answers. All teams query the same holdout, so by basic composition the
 * total is the sum over teams.
 */
export function privacySpent(teams: Map<string, TeamReleases>, sigma: number, sensitivity: number): PrivacySpent {
  const unit = epsUnit(sigma, sensitivity);
  const perTeam = new Map<string, number>();
  let total = 0;
  for (const [team, t] of teams) {
    const eps = ((UNITS.epoch + UNITS.answer) * t.holdoutAnswers + UNITS.epoch * t.openEpochs) * unit;
    perTeam.set(team, eps);
    total += eps;
  }
  return { perTeam, total };
}
