import "server-only";
import { compute } from "./compute";
import { db } from "./db";
import { AppError } from "./errors";
import { COMPETITION_SELECT, type CompetitionRow, correlationOf, defaultMaxQueries, lockCompetition, lockDraft, requireDraft, requireOrganizer, mechanismOf } from "./competitions";
import { getSolutionSummary, loadSolution } from "./solutions";
import type { PublicUser } from "./users";
import type { Plan } from "@/lib/calibration/planner";
import { type CorrelationSummary, splitIntegrityProblem } from "@/lib/calibration/resolve";
import type { Solution } from "@/lib/csv/solution";
import type { AttackPreview } from "@/lib/experiments/preview";
import { calibrationRequestSchema, correlationModelSchema, type CorrelationModelInput, mechanismSchema, type MechanismInput } from "@/lib/validation/calibration";
import type { MechanismPreview } from "@/lib/responses";

/** POST /api/v1/calibrate: the same planner as `npm run calibrate`, on a worker thread. */
export async function calibrate(input: unknown) {
  return compute("answerCalibration", calibrationRequestSchema.parse(input));
}

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
function resolveOn(solution: Solution, model: CorrelationModelInput): Promise<CorrelationSummary> {
  const n = solution.split.reduce((a, b) => a + b, 0);
  const { split, order, groups, states } = solution;
  return once(solution, ["correlation", model], () => compute("resolveCorrelation", model, n, { split, order, groups, states }));
}

/** The stored correlation model resolved against the solution (independent when none is set). */
export async function getCorrelationSummary(competition: CompetitionRow): Promise<CorrelationSummary | null> {
  const solution = await loadSolution(competition.id);
  return solution && resolveOn(solution, correlationOf(competition));
}

/** PUT …/correlation: validates the model against the solution, stores it, returns the summary. */
export async function setCorrelation(user: PublicUser, slug: string, input: unknown): Promise<CorrelationSummary | { model: CorrelationModelInput }> {
  const competition = await requireOrganizer(user, slug);
  requireDraft(competition, "the correlation model");
  const body = (input ?? {}) as { model?: unknown };
  const model = correlationModelSchema.parse(body.model);
  const solution = await loadSolution(competition.id);
  const summary = solution && (await resolveOn(solution, model));
  await db.$transaction(async (tx) => {
    await lockDraft(tx, competition.id, "the correlation model");
    await tx.competition.update({ where: { id: competition.id }, data: { correlation: model } });
  });
  return summary ?? { model };
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

/** PUT …/mechanism: stores the settings and the σ, T, B₀ they resolve to. */
export async function setMechanism(user: PublicUser, slug: string, input: unknown): Promise<Plan> {
  const competition = await requireOrganizer(user, slug);
  requireDraft(competition, "the mechanism");
  const mechanism = mechanismSchema.parse(input);
  const { plan } = await planOn(competition, mechanism);
  await db.$transaction(async (tx) => {
    await lockDraft(tx, competition.id, "the mechanism");
    await tx.competition.update({ where: { id: competition.id }, data: { mechanism, sigma: plan.sigma, threshold: plan.threshold, budget: plan.budget } });
  });
  return plan;
}

const TAUS = [0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1];

/** The mechanism panel's live answer: the plan and the three plots, without storing anything. */
export async function previewMechanism(user: PublicUser, slug: string, input: unknown): Promise<MechanismPreview> {
  const competition = await requireOrganizer(user, slug);
  const mechanism = mechanismSchema.parse(input);
  const { plan, summary } = await planOn(competition, mechanism);
  const setting = { n: summary.n, model: summary.model };
  const beta = mechanism.beta ?? plan.guarantee.beta;
  const maxQueries = plan.guarantee.maxQueries;
  const split = mechanism.mode === "guarantee" ? mechanism.split : undefined;
  const tolerance = Math.min(1, mechanism.mode === "guarantee" ? mechanism.tolerance : (plan.guarantee.tolerance ?? 0.2));
  const sigmas = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4].map((f) => f * plan.sigma);
  const curves = await compute("curves", setting, { beta, maxQueries, split, tolerance, budget: plan.budget, taus: TAUS, sigmas });
  return { plan, curves: { ...curves, tolerance } };
}

/**
 * The attack preview of the manage page: the boosting attack against the draft's mechanism on
 * synthetic labels of the holdout's size and correlation (lib/experiments/preview.ts).
 */
export async function previewAttack(user: PublicUser, slug: string, input: unknown): Promise<AttackPreview & { budget: number }> {
  const competition = await requireOrganizer(user, slug);
  const mechanism = mechanismSchema.parse(input);
  const { plan, summary } = await planOn(competition, mechanism);
  if (plan.budget < 1) throw new AppError("conflict", "the mechanism's budget is 0; there is nothing to attack");
  const solution = (await getSolutionSummary(competition.id))!;
  const preview = await compute("previewAttack", {
    holdoutRows: solution.holdout,
    publicRows: solution.public,
    nEff: summary.nEff,
    sigma: plan.sigma,
    threshold: plan.threshold,
    budget: plan.budget,
    submissions: 400,
    seed: competition.id,
  });
  return { ...preview, budget: plan.budget };
}

/**
 * Publishes a draft: needs a solution whose split keeps correlated rows together (under the groups
 * and Markov models) and mechanism settings whose budget is at least 1; the plan is recomputed from
 * the stored settings so σ, T, B₀ and m match the final solution and the publishing date. Competitors
 * may join from then on; the solution, correlation and mechanism are locked.
 */
export async function publishCompetition(user: PublicUser, slug: string): Promise<CompetitionRow> {
  const competition = await requireOrganizer(user, slug);
  if (competition.status !== "draft") throw new AppError("conflict", `the competition is already ${competition.status}`);
  if (competition.endsAt <= new Date()) throw new AppError("conflict", "the end date has passed; move it to the future before publishing");
  const mechanism = mechanismOf(competition);
  if (!mechanism) throw new AppError("conflict", "configure the mechanism before publishing");
  const now = new Date();
  const solution = await loadSolution(competition.id);
  const summary = await getSolutionSummary(competition.id);
  if (!solution || !summary) throw new AppError("conflict", "upload the solution before publishing");
  const crossing = splitIntegrityProblem(correlationOf(competition).kind, solution);
  if (crossing) throw new AppError("conflict", `the split cuts correlated rows: ${crossing}`);
  const live = { ...competition, publishedAt: now };
  const { plan } = await planOn(live, mechanism);
  if (plan.budget < 1) throw new AppError("conflict", "the mechanism's budget is 0: no team could get a holdout answer; loosen the tolerance or use practical mode");
  // Under the row lock: still a draft, and the solution and settings planned on are the stored ones.
  return db.$transaction(async (tx) => {
    if ((await lockCompetition(tx, competition.id)) !== "draft") throw new AppError("conflict", "the competition was published meanwhile");
    const current = await tx.competition.findUniqueOrThrow({
      where: { id: competition.id },
      select: { mechanism: true, correlation: true, endsAt: true, solution: { select: { sha256: true } } },
    });
    const unchanged =
      current.solution?.sha256 === summary.sha256 &&
      JSON.stringify([current.mechanism, current.correlation, current.endsAt]) === JSON.stringify([competition.mechanism, competition.correlation, competition.endsAt]);
    if (!unchanged) throw new AppError("conflict", "the competition's settings changed while it was being published; publish again");
    return tx.competition.update({
      where: { id: competition.id },
      data: { status: "published", publishedAt: now, sigma: plan.sigma, threshold: plan.threshold, budget: plan.budget, maxQueries: plan.guarantee.maxQueries },
      select: COMPETITION_SELECT,
    });
  });
}
