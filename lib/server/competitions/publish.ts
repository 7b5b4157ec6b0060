import "server-only";
import { COMPETITION_SELECT, commitSecret, type CompetitionRow, correlationOf, mechanismOf, requireOrganizer } from "./competitions";
import { planOn } from "./plans";
import { getSolutionSummary, loadSolution } from "./solutions";
import { db, lockCompetition } from "@/lib/server/platform/db";
import { appLink, message } from "@/lib/server/platform/mail";
import { sendMails } from "@/lib/server/platform/outbox";
import { AppError } from "@/lib/server/platform/errors";
import type { PublicUser } from "@/lib/server/accounts/users";
import { ignoredDeclarations, splitIntegrityProblem } from "@/lib/calibration/resolve";
import type { Plan } from "@/lib/calibration/planner";
import type { Solution } from "@/lib/csv/solution";
import type { PublishCheck, PublishChecklist } from "@/lib/responses";
import type { AcknowledgmentCode, PublishRequest } from "@/lib/validation/competitions";

const MODEL_NAMES = { independent: "independent rows", groups: "groups", markov: "a Markov chain", "max-influence": "a max-influence bound" } as const;

/**
 * Everything publishing needs, each item with what is there or what to do: a deadline in the
 * future, a solution, a correlation model whose split keeps correlated rows together (under the
 * groups and Markov models), and mechanism settings whose budget is at least 1, planned as
 * publishing now would plan them. Publishing refuses with every problem at once. And what the
 * organizer must acknowledge before competitors read it (acknowledgmentsFor).
 */
async function inspect(competition: CompetitionRow, now: Date) {
  const solution = await loadSolution(competition.id);
  const summary = await getSolutionSummary(competition.id);
  const mechanism = mechanismOf(competition);
  const model = correlationOf(competition).kind;
  const crossing = solution && splitIntegrityProblem(model, solution);
  const plan = solution && summary && mechanism ? (await planOn({ ...competition, publishedAt: now }, mechanism)).plan : null;
  const checks: PublishCheck[] = [
    competition.endsAt > now
      ? { item: "deadline", ok: true, detail: `closes ${competition.endsAt.toISOString().slice(0, 16).replace("T", " ")} UTC` }
      : { item: "deadline", ok: false, detail: "the end date has passed; move it to the future before publishing" },
    solution && summary
      ? {
          item: "solution",
          ok: true,
          detail: `${summary.rows.toLocaleString("en")} rows: ${summary.public.toLocaleString("en")} public, ${summary.holdout.toLocaleString("en")} holdout`,
        }
      : { item: "solution", ok: false, detail: "upload the solution before publishing" },
    crossing
      ? { item: "correlation", ok: false, detail: `the split cuts correlated rows: ${crossing}` }
      : {
          item: "correlation",
          ok: true,
          detail: `${MODEL_NAMES[model]}${solution && ignoredDeclarations(model, solution).length > 0 ? " (the solution declares more: see what publishing asks you to acknowledge)" : ""}`,
        },
    !mechanism
      ? { item: "mechanism", ok: false, detail: "configure the mechanism before publishing" }
      : !plan
        ? { item: "mechanism", ok: false, detail: "upload the solution first: the mechanism is planned for its holdout rows" }
        : plan.budget < 1
          ? { item: "mechanism", ok: false, detail: "the mechanism's budget is 0: no team could get a holdout answer; loosen the tolerance or use practical mode" }
          : { item: "mechanism", ok: true, detail: `σ = ${plan.sigma.toPrecision(3)}, T = ${plan.threshold.toPrecision(3)}, budget ${plan.budget}` },
  ];
  return { ready: checks.every((c) => c.ok), checks, plan, summary, acknowledgments: solution ? acknowledgmentsFor(solution, model, plan) : [] };
}

/**
 * What publishing needs acknowledged in words (docs/operating.md, Publishing): a correlation model
 * that ignores the groups or states the solution declares (the scores would claim more certainty
 * than the rows support), and a plan under which no formal guarantee holds (competitors would read
 * "no formal guarantee" beside every score).
 */
function acknowledgmentsFor(solution: Solution, model: keyof typeof MODEL_NAMES, plan: Plan | null): { code: AcknowledgmentCode; message: string }[] {
  const count = (codes: Int32Array) => new Set(codes).size.toLocaleString("en");
  const words: Record<AcknowledgmentCode, () => string> = {
    model_ignores_groups: () =>
      `The solution declares ${count(solution.groups!.codes)} groups, but the correlation model is ${MODEL_NAMES[model]}: rows of a group are treated as independent, so every promise would be tighter than the data supports.`,
    model_ignores_states: () =>
      `The solution declares a state for each row, but the correlation model is ${MODEL_NAMES[model]}, not a Markov chain fitted from them: the promises would ignore how rows depend on the rows before them.`,
    no_guarantee: () => `${plan!.guarantee.explanation} Competitors will read that no formal guarantee covers their scores.`,
  };
  const codes: AcknowledgmentCode[] = [...ignoredDeclarations(model, solution), ...(plan && plan.budget >= 1 && !plan.guarantee.holds ? (["no_guarantee"] as const) : [])];
  return codes.map((code) => ({ code, message: words[code]() }));
}

/** The checklist of a draft (its manage page, and GET …/publish). */
export async function publishChecklist(competition: CompetitionRow, now = new Date()): Promise<PublishChecklist> {
  const { ready, checks, acknowledgments } = await inspect(competition, now);
  return { ready, checks, acknowledgments };
}

/** GET …/publish (organizers): the checklist of a draft; 409 once published. */
export async function getPublishChecklist(user: PublicUser, slug: string): Promise<PublishChecklist> {
  const competition = await requireOrganizer(user, slug);
  if (competition.status !== "draft") throw new AppError("conflict", `the competition is already ${competition.status}`);
  return publishChecklist(competition);
}

/**
 * Publishes a draft once its checklist is complete (publishChecklist; otherwise a 409 naming every
 * problem) and the organizer acknowledged what the checklist asks to (`{acknowledge: [codes]}`;
 * otherwise 409 `acknowledgment_required` with the missing codes in `details`); the plan is
 * recomputed from the stored settings so σ, T, B₀ and m match the final solution and the publishing
 * date. Competitors may join from then on; the solution, correlation and mechanism are locked.
 */
export async function publishCompetition(user: PublicUser, slug: string, { acknowledge }: PublishRequest = { acknowledge: [] }): Promise<CompetitionRow> {
  const competition = await requireOrganizer(user, slug);
  if (competition.status !== "draft") throw new AppError("conflict", `the competition is already ${competition.status}`);
  const now = new Date();
  const { ready, checks, plan, summary, acknowledgments } = await inspect(competition, now);
  if (!ready || !plan || !summary)
    throw new AppError(
      "conflict",
      checks
        .filter((c) => !c.ok)
        .map((c) => c.detail)
        .join("; "),
      checks,
    );
  const missing = acknowledgments.filter((a) => !acknowledge.includes(a.code));
  if (missing.length > 0)
    throw new AppError(
      "acknowledgment_required",
      `publishing needs your acknowledgment: ${missing.map((a) => a.message).join(" ")} Publish again with {"acknowledge": [${missing.map((a) => `"${a.code}"`).join(", ")}]}.`,
      missing.map((a) => a.code),
    );
  // Under the row lock: still a draft, and the solution and settings planned on are the stored ones.
  const published = await db.$transaction(async (tx) => {
    if ((await lockCompetition(tx, competition.id)) !== "draft") throw new AppError("conflict", "the competition was published meanwhile");
    const current = await tx.competition.findUniqueOrThrow({
      where: { id: competition.id },
      select: { metric: true, metricParams: true, mechanism: true, correlation: true, endsAt: true, secret: true, solution: { select: { sha256: true } } },
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
        // The commitment (docs/mechanism.md §2.10): the solution's bytes as uploaded, and the secret with the settings the answers will be drawn with.
        solutionCommitment: summary.sha256,
        ...commitSecret(competition, plan, current.secret),
      },
      select: COMPETITION_SELECT,
    });
  });
  await announcePublished(published);
  return published;
}

/** Mails every current organizer (not the removed ones) the commitment publishing fixed, to keep beside the competition's record. */
async function announcePublished(competition: CompetitionRow): Promise<void> {
  const organizers = await db.competitionOrganizer.findMany({
    where: { competitionId: competition.id, removedAt: null },
    select: { user: { select: { id: true, email: true, name: true } } },
  });
  await sendMails(
    organizers.map(({ user }) => ({
      key: `published:${competition.id}:${user.id}`,
      kind: "account" as const,
      mail: message({
        to: user.email,
        subject: `${competition.title} is published`,
        name: user.name,
        paragraphs: [
          `${competition.title} is open to competitors. Publishing fixed its solution and its mechanism: anyone can check them against these SHA-256 commitments once you reveal them after the close.`,
          `Solution file: ${competition.solutionCommitment}`,
          `Mechanism's secret with its settings: ${competition.secretCommitment}`,
        ],
        action: { label: "See the competition", url: appLink(`/competitions/${competition.slug}`) },
      }),
    })),
  );
}
