import { check } from "../mechanism/errors";
import type { Concentration } from "./concentration";
import { answerValues, lnPrefixTranscripts } from "./description-length";
import { truthInterval } from "./score-bounds";

/**
 * Bounds for the final standings (docs/mechanism.md §2.9): each final score is the exact holdout value
 * of a submission a team chose after reading everything the site showed, so the bound must hold under
 * the whole competition's adaptivity. The competition-wide count covers that (§2.7): every query of
 * every team is a function of the competition's transcript before it, with M teams of at most m queries
 * and H holdout answers in all, so with probability ≥ 1 − β every query's holdout value — a final one
 * among them — is within the deviation of ln(Σᵢ ℓᵢ(M·m, H, R)) + ln(2/δ) of its truth. The finals add
 * no query: a final submission is one of the team's queries, and choosing among them is what the union
 * already covers. M and H are known only at the close, so the count for them takes
 * β·6/(π²M²)·6/(π²(H + 1)²), whose sum over every M ≥ 1 and H ≥ 0 is at most β.
 */
export type FinalBoundInput = {
  concentration: Pick<Concentration, "size" | "kl">;
  /** M, the teams that took part (merged teams once) */
  teams: number;
  /** m, the scored queries per team */
  maxQueries: number;
  /** H, the holdout answers released over all teams */
  holdoutAnswers: number;
  /** d, the decimals holdout answers were released with (R = 10^d + 1) */
  decimals: number;
  beta: number;
};

/** 6/(π² k²): the share of β a union over k = 1, 2, 3, … gives k (the shares sum to 1). */
function share(k: number): number {
  return 6 / (Math.PI ** 2 * k ** 2);
}

/** ln(2/δ) of a final score: the competition-wide count at M teams and H holdout answers, with their shares of β. */
export function finalNats(input: FinalBoundInput): number {
  const { teams, maxQueries, holdoutAnswers, decimals, beta } = input;
  check(Number.isInteger(teams) && teams >= 1, `teams must be a whole number ≥ 1, got ${teams}`);
  check(Number.isInteger(holdoutAnswers) && holdoutAnswers >= 0, `holdout answers must be a whole number ≥ 0, got ${holdoutAnswers}`);
  check(beta > 0 && beta < 1, `β must be in (0, 1), got ${beta}`);
  const lnCount = lnPrefixTranscripts({ queries: teams * maxQueries, holdoutAnswers: Math.min(holdoutAnswers, teams * maxQueries), values: answerValues(decimals) });
  return lnCount + Math.log(2 / (beta * share(teams) * share(holdoutAnswers + 1)));
}

/** The interval of a final score's truth, [0, 1] units: the final value is exact, so only the deviation widens it. */
export function finalInterval(input: FinalBoundInput, value: number): { lower: number; upper: number } {
  check(value >= 0 && value <= 1, `a final score must be in [0, 1], got ${value}`);
  return truthInterval(input.concentration, { low: value, high: value }, finalNats(input));
}

/**
 * Which teams are tied (docs/mechanism.md §2.9): two teams whose intervals overlap, since no proof
 * tells which of the two is better. Each team's list of the others it overlaps, in the order given.
 */
export function tiedWith<T extends { id: string; lower: number; upper: number }>(entries: T[]): Map<string, string[]> {
  return new Map(entries.map((e) => [e.id, entries.filter((o) => o.id !== e.id && o.lower <= e.upper && e.lower <= o.upper).map((o) => o.id)]));
}
