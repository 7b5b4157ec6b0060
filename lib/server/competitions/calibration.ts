import "server-only";
import { compute, computeForAnyone } from "@/lib/server/platform/compute";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { requireOrganizer } from "./competitions";
import { lockDraft, requireDraft } from "./lifecycle";
import { planOn, resolveOn } from "./plans";
import { getSolutionSummary, loadSolution } from "./solutions";
import type { PublicUser } from "@/lib/server/accounts/users";
import type { Plan } from "@/lib/calibration/planner";
import type { CorrelationSummary } from "@/lib/calibration/resolve";
import type { AttackPreview } from "@/lib/experiments/preview";
import type { CalibrationRequest, CorrelationModelInput, CorrelationRequest, MechanismInput } from "@/lib/validation/calibration";
import type { MechanismPreview } from "@/lib/responses";

/** POST /api/v1/calibrate: the same planner as `npm run calibrate`, on a worker thread of the lane anyone may use (platform/compute.ts). */
export async function calibrate(input: CalibrationRequest) {
  return computeForAnyone("answerCalibration", input);
}

/** PUT …/correlation: validates the model against the solution, stores it, returns the summary. */
export async function setCorrelation(user: PublicUser, slug: string, { model }: CorrelationRequest): Promise<CorrelationSummary | { model: CorrelationModelInput }> {
  const competition = await requireOrganizer(user, slug);
  requireDraft(competition, "the correlation model");
  const solution = await loadSolution(competition.id);
  const summary = solution && (await resolveOn(solution, model));
  await db.$transaction(async (tx) => {
    await lockDraft(tx, competition.id, "the correlation model");
    await tx.competition.update({ where: { id: competition.id }, data: { correlation: model } });
  });
  return summary ?? { model };
}

/**
 * PUT …/mechanism: stores the settings and the σ, T, B₀ they resolve to. A plan whose budget is 0 (no
 * team could ever be checked on the holdout) is refused with the planner's reason, nothing stored: the
 * preview is where to try settings.
 */
export async function setMechanism(user: PublicUser, slug: string, mechanism: MechanismInput): Promise<Plan> {
  const competition = await requireOrganizer(user, slug);
  requireDraft(competition, "the mechanism");
  const { plan } = await planOn(competition, mechanism);
  if (plan.budget < 1)
    throw new AppError("conflict", `these settings give a budget of 0, so no team could be checked on the holdout; nothing was saved. ${plan.guarantee.explanation}`);
  await db.$transaction(async (tx) => {
    await lockDraft(tx, competition.id, "the mechanism");
    await tx.competition.update({ where: { id: competition.id }, data: { mechanism, sigma: plan.sigma, threshold: plan.threshold, budget: plan.budget } });
  });
  return plan;
}

const TAUS = [0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1];

/** The mechanism panel's live answer: the plan and the three plots, without storing anything. */
export async function previewMechanism(user: PublicUser, slug: string, mechanism: MechanismInput): Promise<MechanismPreview> {
  const competition = await requireOrganizer(user, slug);
  const { plan, setting } = await planOn(competition, mechanism);
  const beta = mechanism.beta ?? plan.guarantee.beta;
  const maxQueries = plan.guarantee.maxQueries;
  const split = mechanism.mode === "guarantee" ? mechanism.split : undefined;
  const tolerance = Math.min(1, mechanism.mode === "guarantee" ? mechanism.tolerance : (plan.guarantee.tolerance ?? 0.2));
  const sigmas = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4].map((f) => f * plan.sigma);
  const curves = await compute("curves", setting, { beta, maxQueries, split, tolerance, budget: plan.budget, recommended: plan.honest.recommended, taus: TAUS, sigmas });
  return { plan, curves: { ...curves, tolerance } };
}

/**
 * The attack preview of the manage page: the boosting attack against the draft's mechanism on
 * synthetic labels of the holdout's size and correlation (lib/experiments/preview.ts).
 */
export async function previewAttack(user: PublicUser, slug: string, mechanism: MechanismInput): Promise<AttackPreview & { budget: number }> {
  const competition = await requireOrganizer(user, slug);
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
