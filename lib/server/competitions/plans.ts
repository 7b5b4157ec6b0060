import "server-only";
import { compute } from "@/lib/server/platform/compute";
import { AppError } from "@/lib/server/platform/errors";
import { type CompetitionRow, correlationOf, defaultMaxQueries, mechanismOf, metricOf } from "./competitions";
import { loadSolution, shapesOf } from "./solutions";
import { DEFAULT_BETA } from "@/lib/calibration/calibrate";
import { DEFAULT_TEAMS, type Plan, type Setting } from "@/lib/calibration/planner";
import { concentrationOf, isCovered } from "@/lib/calibration/concentration";
import { boundSettingFor, scoreInterval, type ScoreBoundSetting, type ShownScore } from "@/lib/calibration/score-bounds";
import type { Metric } from "@/lib/metrics/registry";
import { db } from "@/lib/server/platform/db";
import type { CorrelationSummary } from "@/lib/calibration/resolve";
import type { Solution } from "@/lib/csv/solution";
import type { CorrelationModelInput, MechanismInput } from "@/lib/validation/calibration";
import type { GuaranteeSummary } from "@/lib/responses";

// Summaries and plans are computed once per solution file and settings, not on every page view:
// memoised per decoded solution (replaced when a new file is uploaded) by the settings they read.
const memo = new WeakMap<Solution, Map<string, Promise<unknown>>>();

function once<T>(solution: Solution, key: unknown, make: () => Promise<T>): Promise<T> {
  let entries = memo.get(solution);
  if (!entries) memo.set(solution, (entries = new Map()));
  const k = JSON.stringify(key);
  let value = entries.get(k) as Promise<T> | undefined;
  if (!value) {
    if (entries.size >= 200) entries.delete(entries.keys().next().value!);
    value = make();
    value.catch(() => entries.delete(k));
    entries.set(k, value);
  }
  return value;
}

/** A correlation model resolved against the solution's columns (fitted, chains read), on a worker thread. */
export function resolveOn(solution: Solution, model: CorrelationModelInput): Promise<CorrelationSummary> {
  const { split, order, groups, states } = solution;
  // The holdout's size is counted inside: a pass over every row is not for each page view. The
  // worker is sent the columns it reads (copied to it): not the ids, nor the group names.
  return once(solution, ["correlation", model], () =>
    compute(
      "resolveCorrelation",
      model,
      split.reduce((a, b) => a + b, 0),
      { split, order, groups: groups && { codes: groups.codes }, states },
    ),
  );
}

/** The stored correlation model resolved against the solution (independent when none is set). */
export async function getCorrelationSummary(competition: CompetitionRow): Promise<CorrelationSummary | null> {
  const solution = await loadSolution(competition.id);
  return solution && resolveOn(solution, correlationOf(competition));
}

/**
 * The planner's answer for a mechanism input on this competition's holdout, its correlation, its
 * metric's Δ, concentration size and additivity (docs/mechanism.md §4) and its public split (an
 * honest team's gap, §2.6); the competition-wide figure counts the competition's holdout cap and its
 * teams (DEFAULT_TEAMS for a draft).
 */
export async function planOn(competition: CompetitionRow, mechanism: MechanismInput): Promise<{ plan: Plan; summary: CorrelationSummary; setting: Setting }> {
  const solution = await loadSolution(competition.id);
  if (!solution) throw new AppError("conflict", "upload the solution first: the mechanism is planned for its holdout rows");
  const correlation = correlationOf(competition);
  const summary = await resolveOn(solution, correlation);
  // A draft's competition-wide figure is planned for DEFAULT_TEAMS; a running competition's is stated
  // for the teams it has (valid whatever their number: planner.ts teamsShare).
  const teams = competition.status === "draft" ? DEFAULT_TEAMS : Math.max(1, await db.team.count({ where: { competitionId: competition.id, mergedIntoId: null } }));
  const shapes = shapesOf(competition, solution);
  const setting: Setting = {
    n: summary.n,
    model: summary.model,
    sensitivity: shapes.holdout.sensitivity,
    concentration: shapes.holdout.concentration,
    additive: shapes.holdout.additive,
    publicRows: shapes.public.concentration,
    holdoutCap: competition.holdoutCap,
    teams,
  };
  const withDefaults = { ...mechanism, maxQueries: mechanism.maxQueries ?? competition.maxQueries ?? defaultMaxQueries(competition) };
  const plan = await once(solution, ["plan", correlation, competition.metric, competition.metricParams, setting.holdoutCap, teams, withDefaults], () =>
    compute("planMechanism", setting, withDefaults),
  );
  return { plan, summary, setting };
}

/**
 * The plan the competition runs: once published, what its fixed σ, T, B₀ and m guarantee (practical
 * mode on them); for a draft, the plan of its mechanism settings. Null when none are set or there is
 * no solution yet.
 */
export async function getCurrentPlan(competition: CompetitionRow): Promise<Plan | null> {
  const mechanism = mechanismOf(competition);
  if (!mechanism) return null;
  const solution = await loadSolution(competition.id);
  if (!solution) return null;
  if (competition.status === "draft" || competition.sigma === null || competition.threshold === null || competition.budget === null)
    return (await planOn(competition, mechanism)).plan;
  const fixed = { mode: "practical" as const, sigma: competition.sigma, threshold: competition.threshold, budget: competition.budget, beta: mechanism.beta ?? DEFAULT_BETA };
  return (await planOn(competition, { ...fixed, ...(competition.maxQueries === null ? {} : { maxQueries: competition.maxQueries }) })).plan;
}

/**
 * What the competition's page and `GET …/competitions/{slug}` say the scores are worth, in the
 * metric's display units (docs/mechanism.md §2.6, §2.7): each figure in its own words — the per-team
 * guarantee covers a team acting on its own answers (with its promise by holdout checks used,
 * §2.8), the competition-wide one anyone — the bound Thresholdout's check puts on a shown public
 * score (T plus the threshold's noise, 95 %), and what honest teams are expected to spend. Every
 * figure covers the live competition: after the close, final and late scores are exact. Null
 * without a plan.
 */
export async function getGuaranteeSummary(competition: CompetitionRow): Promise<GuaranteeSummary | null> {
  const plan = await getCurrentPlan(competition);
  if (!plan) return null;
  const metric = metricOf(competition);
  const display = (deviation: number) => metric.displayHalfWidth(0, deviation); // at its widest (root metrics)
  const { guarantee, competition: wide } = plan;
  return {
    team: {
      holds: guarantee.holds,
      proof: guarantee.proof,
      tolerance: guarantee.tolerance === null ? null : display(guarantee.tolerance),
      maxQueries: guarantee.maxQueries,
      budget: plan.budget,
      beta: guarantee.beta,
      byChecks: plan.scores?.byChecks.map((c) => ({ checks: c.checks, bound: display(c.bound) })) ?? [],
    },
    competition: {
      holds: wide.holds,
      tolerance: wide.tolerance === null ? null : display(wide.tolerance),
      cap: wide.cap,
      teams: wide.teams,
      answersReleased: competition.holdoutAnswers,
    },
    publicBound: display(plan.threshold + 3 * plan.sigma * Math.log(20)),
    honestCharges: plan.honest.expectedCharges,
  };
}

/**
 * What every shown score's bound depends on besides the score (docs/mechanism.md §2.8,
 * lib/calibration/score-bounds.ts): the holdout's concentration for the metric and model, σ, T, m,
 * the answers' decimals, Δ, whether holdout answers are capped, β and its split (fixed from B₀).
 * Computed once per solution and settings. Null before publishing (no answer is given) and where no
 * inequality covers the metric and model (no score has a bound).
 */
export async function getScoreBounds(competition: CompetitionRow): Promise<ScoreBoundSetting | null> {
  if (competition.status === "draft" || competition.sigma === null || competition.threshold === null || competition.budget === null) return null;
  const solution = await loadSolution(competition.id, { published: true });
  if (!solution) return null;
  const correlation = correlationOf(competition);
  const summary = await resolveOn(solution, correlation);
  const holdout = shapesOf(competition, solution).holdout;
  const { sigma, threshold, budget, maxQueries, answerDecimals, holdoutCap } = competition;
  const beta = mechanismOf(competition)?.beta ?? DEFAULT_BETA;
  return once(solution, ["bounds", correlation, competition.metric, competition.metricParams, sigma, threshold, budget, maxQueries, answerDecimals, holdoutCap, beta], async () => {
    const concentration = concentrationOf({ n: summary.n, model: summary.model, concentration: holdout.concentration, additive: holdout.additive });
    if (!isCovered(concentration)) return null;
    const input = { concentration, maxQueries: maxQueries!, decimals: answerDecimals!, capped: holdoutCap !== null, sigma, threshold, sensitivity: holdout.sensitivity, beta };
    return boundSettingFor(input, budget);
  });
}

/** An answer as its bound sees it: any kind, and no value for ⊥. */
type Answered = Omit<ShownScore, "kind" | "value"> & { kind: string; value: number | null };

/**
 * A released score's bound in the metric's display units: the larger distance from the shown value
 * to the ends of its interval (docs/mechanism.md §2.8). Null without bounds, for an answer that
 * released no checked score (⊥, a limit, a late answer), and for a position the guarantee does not
 * cover.
 */
export function displayBound(bounds: ScoreBoundSetting | null, metric: Metric, answer: Answered): number | null {
  const { kind, value } = answer;
  if (!bounds || value === null || (kind !== "public" && kind !== "holdout") || answer.index > bounds.maxQueries) return null;
  const score: ShownScore = { ...answer, kind, value };
  const { lower, upper } = scoreInterval(bounds, score);
  const shown = metric.toDisplay(value);
  return Math.max(metric.toDisplay(upper) - shown, shown - metric.toDisplay(lower));
}
