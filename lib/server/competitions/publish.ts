import "server-only";
import { COMPETITION_SELECT, type CompetitionRow, correlationOf, mechanismOf, requireOrganizer } from "./competitions";
import { planOn } from "./plans";
import { getSolutionSummary, loadSolution } from "./solutions";
import { db, lockCompetition } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import type { PublicUser } from "@/lib/server/accounts/users";
import { splitIntegrityProblem } from "@/lib/calibration/resolve";

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
      select: { metric: true, metricParams: true, mechanism: true, correlation: true, endsAt: true, solution: { select: { sha256: true } } },
    });
    const unchanged =
      current.solution?.sha256 === summary.sha256 &&
      JSON.stringify([current.metric, current.metricParams, current.mechanism, current.correlation, current.endsAt]) ===
        JSON.stringify([competition.metric, competition.metricParams, competition.mechanism, competition.correlation, competition.endsAt]);
    if (!unchanged) throw new AppError("conflict", "the competition's settings changed while it was being published; publish again");
    return tx.competition.update({
      where: { id: competition.id },
      data: {
        status: "published",
        publishedAt: now,
        sigma: plan.sigma,
        threshold: plan.threshold,
        budget: plan.budget,
        maxQueries: plan.guarantee.maxQueries,
        answerDecimals: plan.answerDecimals,
      },
      select: COMPETITION_SELECT,
    });
  });
}
