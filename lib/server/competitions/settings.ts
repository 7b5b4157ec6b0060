import "server-only";
import { randomUUID } from "node:crypto";
import { checkMetric, commitSecret, COMPETITION_SELECT, type CompetitionRow, defaultMaxQueries, type OrganizedCompetition, mechanismOf, requireOrganizer } from "./competitions";
import { db, lockCompetition } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import type { PublicUser } from "@/lib/server/accounts/users";
import { withConfiguredProvider } from "./access";
import { planOn } from "./plans";
import { announce, settingsNotice } from "./announcements";
import { queueEvent } from "./webhooks";
import { deliver } from "@/lib/server/platform/outbox";
import type { Plan } from "@/lib/calibration/planner";
import type { Prisma } from "@/lib/generated/prisma/client";
import { LIVE_SETTINGS, OPEN_ONLY_SETTINGS, type UpdateCompetitionInput } from "@/lib/validation/competitions";
import type { ChangeLogEntry, PlanFigures, SettingChange, SettingsPreview } from "@/lib/responses";

type Prepared = SettingsPreview & { data: Prisma.CompetitionUpdateInput; submitted: boolean };

function figures(plan: Plan): PlanFigures {
  return {
    sigma: plan.sigma,
    threshold: plan.threshold,
    budget: plan.budget,
    maxQueries: plan.guarantee.maxQueries,
    tolerance: plan.guarantee.tolerance,
    holds: plan.guarantee.holds,
    explanation: plan.guarantee.explanation,
  };
}

/** A PATCH's parsed body, its identity rule's provider checked against those configured and named (access.ts). */
function withProvider(input: UpdateCompetitionInput): UpdateCompetitionInput {
  return input.access ? { ...input, access: withConfiguredProvider(input.access) } : input;
}

const asLogged = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : (value ?? null));

/**
 * Checks a settings change against the competition as it stands and works out what it implies.
 * A draft may change anything. Once published only LIVE_SETTINGS may change (the solution, the
 * correlation model and the mechanism were planned together), the deadline only to a future
 * instant, and once closed only the wording, access and late submissions. When the deadline or the
 * daily cap moves the default m (the organizer did not fix m), the plan follows: before any team has
 * submitted, σ, T and B₀ are planned afresh for the new m; afterwards σ and T stay (every answer
 * given and every audit replay depends on them), m never shrinks (a guarantee for m queries covers
 * fewer), and only the guarantee is recomputed. Teams keep the B₀ they were formed with.
 */
async function prepare(competition: CompetitionRow, input: UpdateCompetitionInput, now: Date): Promise<Prepared> {
  const live = competition.status !== "draft";
  if (live) {
    const locked = Object.keys(input).filter((k) => !(LIVE_SETTINGS as readonly string[]).includes(k));
    if (locked.length) throw new AppError("conflict", `${locked.join(", ")} cannot change once the competition is published (${LIVE_SETTINGS.join(", ")} can)`);
    const closedOnly = Object.keys(input).filter((k) => (OPEN_ONLY_SETTINGS as readonly string[]).includes(k));
    if (competition.status === "closed" && closedOnly.length) throw new AppError("conflict", `the competition has closed: ${closedOnly.join(" and ")} no longer apply`);
    if (input.endsAt && input.endsAt <= now)
      throw new AppError("unprocessable_entity", "endsAt: the new end must be in the future", [{ path: "endsAt", message: "must be in the future" }]);
  }
  if (input.metric) checkMetric(input.metric.name, input.metric.params);
  const startsAt = input.startsAt === undefined ? competition.startsAt : input.startsAt;
  const endsAt = input.endsAt ?? competition.endsAt;
  if (startsAt && startsAt >= endsAt)
    throw new AppError("unprocessable_entity", "endsAt: the end must come after the start", [{ path: "endsAt", message: "must come after the start" }]);

  const { metric, ...rest } = input;
  const data: Prisma.CompetitionUpdateInput = { ...rest, ...(metric ? { metric: metric.name, metricParams: metric.params ?? {} } : {}) };
  const current: Record<string, unknown> = { ...competition, metric: { name: competition.metric, params: competition.metricParams } };
  const changes = Object.entries(input)
    .map(([field, after]) => ({ field, before: asLogged(current[field]), after: asLogged(after) }))
    .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after));

  const submitted = live && (await db.submission.count({ where: { competitionId: competition.id } })) > 0;
  const mechanism = mechanismOf(competition);
  if (!live || competition.status === "closed" || !mechanism || mechanism.maxQueries !== undefined || competition.maxQueries === null)
    return { changes, plan: null, data, submitted };
  const m = competition.maxQueries;
  const moved = defaultMaxQueries({ ...competition, startsAt, endsAt, dailySubmissionLimit: input.dailySubmissionLimit ?? competition.dailySubmissionLimit }, now);
  const next = submitted ? Math.max(m, moved) : moved;
  if (next === m) return { changes, plan: null, data, submitted };

  const before = (await planOn(competition, mechanism)).plan;
  const after = submitted
    ? (
        await planOn(competition, {
          mode: "practical",
          sigma: competition.sigma!,
          threshold: competition.threshold!,
          budget: competition.budget!,
          beta: before.guarantee.beta,
          maxQueries: next,
        })
      ).plan
    : (await planOn(competition, { ...mechanism, maxQueries: next })).plan;
  if (after.budget < 1) throw new AppError("conflict", `with ${next} submissions per team the mechanism's budget would be 0; choose a nearer deadline or a smaller daily cap`);
  changes.push({ field: "maxQueries", before: m, after: next });
  if (!submitted) {
    for (const key of ["sigma", "threshold", "budget"] as const) if (before[key] !== after[key]) changes.push({ field: key, before: before[key], after: after[key] });
  }
  Object.assign(data, { maxQueries: next, sigma: after.sigma, threshold: after.threshold, budget: after.budget, answerDecimals: after.answerDecimals });
  if (!submitted && competition.status === "published") {
    // σ, T and the answers' decimals are planned afresh before any answer: the commitment to the secret follows them (docs/mechanism.md §2.10).
    const { secret } = await db.competition.findUniqueOrThrow({ where: { id: competition.id }, select: { secret: true } });
    const recommitted = commitSecret(competition, after, secret);
    if (recommitted.secretCommitment !== competition.secretCommitment) {
      changes.push({ field: "secretCommitment", before: competition.secretCommitment, after: recommitted.secretCommitment });
      Object.assign(data, recommitted);
    }
  }
  return { changes, plan: { before: figures(before), after: figures(after), replanned: !submitted }, data, submitted };
}

/** PATCH …?preview=true: what a change would do, nothing stored. */
export async function previewCompetitionUpdate(user: PublicUser, slug: string, input: UpdateCompetitionInput): Promise<SettingsPreview> {
  const competition = await requireOrganizer(user, slug);
  const { changes, plan } = await prepare(competition, withProvider(input), new Date());
  return { changes, plan };
}

/**
 * PATCH …/competitions/{slug}: applies the change and records it (who, when, before → after) in
 * one transaction under the competition's row lock, re-checking that nothing it was planned on
 * moved meanwhile (the status, a first submission, the stored plan). While the competition is open,
 * a change of the deadline, the daily cap or who may take part is announced to its participants in
 * the same transaction (announcements.ts), and mailed once it has committed; every recorded change
 * goes to the competition's webhooks (`settings.changed`, webhooks.ts).
 */
export async function updateCompetition(user: PublicUser, slug: string, input: UpdateCompetitionInput): Promise<CompetitionRow> {
  const competition = await requireOrganizer(user, slug);
  const now = new Date();
  const { changes, data, submitted } = await prepare(competition, withProvider(input), now);
  const notice = competition.status === "published" ? settingsNotice(changes) : null;
  const { updated, mails } = await db.$transaction(async (tx) => {
    const status = await lockCompetition(tx, competition.id);
    const fresh = await tx.competition.findUniqueOrThrow({ where: { id: competition.id }, select: { maxQueries: true, sigma: true, endsAt: true } });
    const firstSubmission = competition.status !== "draft" && !submitted && (await tx.submission.count({ where: { competitionId: competition.id } })) > 0;
    if (
      status !== competition.status ||
      firstSubmission ||
      fresh.maxQueries !== competition.maxQueries ||
      fresh.sigma !== competition.sigma ||
      fresh.endsAt.getTime() !== competition.endsAt.getTime()
    ) {
      throw new AppError("conflict", "the competition changed while this was being saved (published, closed, edited or a first submission); look again and save again");
    }
    const changeId = randomUUID();
    if (changes.length)
      await tx.competitionChange.create({ data: { id: changeId, competitionId: competition.id, userId: user.id, createdAt: now, changes: changes as Prisma.InputJsonValue } });
    const updated = await tx.competition.update({ where: { id: competition.id }, data, select: COMPETITION_SELECT });
    const mails = notice ? (await announce(tx, updated, notice)).queued : [];
    const events = changes.length ? await queueEvent(tx, updated, { type: "settings.changed", id: changeId, at: now, data: { changes } }) : [];
    return { updated, mails: [...mails, ...events] };
  });
  await deliver(mails);
  return updated;
}

/** GET …/changes (organizers): every recorded settings change, newest first. */
export async function listChanges(competition: OrganizedCompetition): Promise<ChangeLogEntry[]> {
  const rows = await db.competitionChange.findMany({
    where: { competitionId: competition.id },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true, changes: true, user: { select: { name: true } } },
  });
  return rows.map((r) => ({ at: r.createdAt.toISOString(), by: r.user.name, changes: r.changes as SettingChange[] }));
}
