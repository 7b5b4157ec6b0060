import "server-only";
import { compute } from "@/lib/server/platform/compute";
import { AppError } from "@/lib/server/platform/errors";
import { type CompetitionRow, correlationOf, defaultMaxQueries, mechanismOf } from "./competitions";
import { loadSolution } from "./solutions";
import type { Plan } from "@/lib/calibration/planner";
import type { CorrelationSummary } from "@/lib/calibration/resolve";
import type { Solution } from "@/lib/csv/solution";
import type { CorrelationModelInput, MechanismInput } from "@/lib/validation/calibration";

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
  const n = solution.split.reduce((a, b) => a + b, 0);
  const { split, order, groups, states } = solution;
  return once(solution, ["correlation", model], () => compute("resolveCorrelation", model, n, { split, order, groups, states }));
}

/** The stored correlation model resolved against the solution (independent when none is set). */
export async function getCorrelationSummary(competition: CompetitionRow): Promise<CorrelationSummary | null> {
  const solution = await loadSolution(competition.id);
  return solution && resolveOn(solution, correlationOf(competition));
}

/** The planner's answer for a mechanism input on this competition's holdout and correlation. */
export async function planOn(competition: CompetitionRow, mechanism: MechanismInput): Promise<{ plan: Plan; summary: CorrelationSummary }> {
  const solution = await loadSolution(competition.id);
  if (!solution) throw new AppError("conflict", "upload the solution first: the mechanism is planned for its holdout rows");
  const correlation = correlationOf(competition);
  const summary = await resolveOn(solution, correlation);
  const withDefaults = { ...mechanism, maxQueries: mechanism.maxQueries ?? competition.maxQueries ?? defaultMaxQueries(competition) };
  const plan = await once(solution, ["plan", correlation, withDefaults], () => compute("planMechanism", { n: summary.n, model: summary.model }, withDefaults));
  return { plan, summary };
}

/** The plan of the stored mechanism settings, or null when none are set (or no solution yet). */
export async function getCurrentPlan(competition: CompetitionRow): Promise<Plan | null> {
  const mechanism = mechanismOf(competition);
  if (!mechanism) return null;
  const solution = await loadSolution(competition.id);
  if (!solution) return null;
  return (await planOn(competition, mechanism)).plan;
}
