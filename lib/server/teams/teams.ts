import "server-only";
import { randomBytes } from "node:crypto";
import { requireAccess } from "@/lib/server/competitions/access";
import { dailyLimits } from "./daily-cap";
import { db, isUniqueViolation, lockTeam } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { getVisibleCompetition, requireOrganizer, metricOf } from "@/lib/server/competitions/competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { requireOpenCompetition } from "@/lib/server/competitions/lifecycle";
import { type BoardKind, type BoardRow, mergeBoardRows } from "@/lib/mechanism/board";
import { isUuid } from "@/lib/validation/ids";
import { createTeamSchema, disqualifySchema, inviteCodeSchema } from "@/lib/validation/teams";
import type { TeamView } from "@/lib/responses";

/** Organizers see raw scores, so they may not compete in their own competition. */
async function refuseOrganizer(user: PublicUser, competitionId: string): Promise<void> {
  const organizes = user.role === "admin" || (await db.competitionOrganizer.count({ where: { competitionId, userId: user.id } })) > 0;
  if (organizes) throw new AppError("forbidden", "organizers and admins see raw scores, so they cannot compete in this competition");
}

async function membership(userId: string, competitionId: string) {
  return db.teamMember.findUnique({ where: { competitionId_userId: { competitionId, userId } }, select: { teamId: true } });
}

/** Creates a team (accepting the rules); the creator is its first member. */
export async function createTeam(user: PublicUser, slug: string, input: unknown): Promise<{ id: string; name: string; inviteCode: string }> {
  const competition = await requireOpenCompetition(user, slug);
  const { name } = createTeamSchema.parse(input);
  await refuseOrganizer(user, competition.id);
  await requireAccess(user, competition);
  if (await membership(user.id, competition.id)) throw new AppError("conflict", "you are already in a team in this competition");
  try {
    return await db.team.create({
      data: {
        competitionId: competition.id,
        name,
        inviteCode: randomBytes(9).toString("base64url"),
        initialBudget: competition.budget!,
        budgetRemaining: competition.budget!,
        members: { create: { competitionId: competition.id, userId: user.id } },
      },
      select: { id: true, name: true, inviteCode: true },
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("conflict", `a team called "${name}" already exists here, or you joined a team meanwhile`);
    }
    throw error;
  }
}

async function teamByCode(competitionId: string, inviteCode: string) {
  const team = await db.team.findFirst({ where: { competitionId, inviteCode, mergedIntoId: null }, select: { id: true, name: true, _count: { select: { members: true } } } });
  if (!team) throw new AppError("not_found", "no team with that invite code in this competition");
  return team;
}

/** Joins a team by its invite code (accepting the rules), within the team size limit. */
export async function joinTeam(user: PublicUser, slug: string, input: unknown): Promise<{ id: string; name: string }> {
  const competition = await requireOpenCompetition(user, slug);
  const { inviteCode } = inviteCodeSchema.parse(input);
  await refuseOrganizer(user, competition.id);
  await requireAccess(user, competition);
  if (await membership(user.id, competition.id)) throw new AppError("conflict", "you are already in a team in this competition");
  const team = await teamByCode(competition.id, inviteCode);
  if (team._count.members >= competition.maxTeamSize) throw new AppError("conflict", `the team is full (at most ${competition.maxTeamSize} members)`);
  await db.teamMember.create({ data: { competitionId: competition.id, userId: user.id, teamId: team.id } });
  return { id: team.id, name: team.name };
}

/** Leaves one's team; allowed only before the team's first submission. An emptied team is removed. */
export async function leaveTeam(user: PublicUser, slug: string): Promise<void> {
  const competition = await getVisibleCompetition(user, slug);
  const member = await membership(user.id, competition.id);
  if (!member) throw new AppError("not_found", "you are not in a team in this competition");
  await db.$transaction(async (tx) => {
    await lockTeam(tx, member.teamId);
    const team = await tx.team.findUniqueOrThrow({ where: { id: member.teamId }, select: { submissionCount: true, _count: { select: { members: true } } } });
    if (team.submissionCount > 0) throw new AppError("conflict", "you cannot leave a team that has already submitted");
    await tx.teamMember.delete({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } } });
    if (team._count.members === 1) await tx.team.delete({ where: { id: member.teamId } });
  });
}

/**
 * Merges the team with `inviteCode` into the caller's team. Allowed while the merged team's
 * submissions do not exceed daily cap × days elapsed, its size stays within the limit, and together
 * the two teams received no more holdout answers (and re-measured scores) than the B₀ the guarantee
 * was calibrated for (docs/mechanism.md §2.6): the merged team has learned what both learned, so its
 * remaining budget is B₀ minus what both spent. Its leaderboard row is what the board's rule gives
 * for both teams' answers (lib/mechanism/board.ts). Both rows are locked (in id order) for the change.
 */
export async function mergeTeams(user: PublicUser, slug: string, input: unknown, now = new Date()): Promise<TeamView> {
  const competition = await requireOpenCompetition(user, slug, now);
  const { inviteCode } = inviteCodeSchema.parse(input);
  const member = await membership(user.id, competition.id);
  if (!member) throw new AppError("conflict", "join or create a team first");
  const other = await teamByCode(competition.id, inviteCode);
  if (other.id === member.teamId) throw new AppError("conflict", "that is your own team's invite code");
  const start = competition.startsAt ?? competition.publishedAt ?? competition.createdAt;
  const days = Math.max(1, Math.ceil((now.getTime() - start.getTime()) / 86_400_000));
  await db.$transaction(async (tx) => {
    for (const id of [member.teamId, other.id].sort()) await lockTeam(tx, id);
    const [a, b] = await Promise.all(
      [member.teamId, other.id].map((id) =>
        tx.team.findUniqueOrThrow({
          where: { id },
          select: {
            id: true,
            mergedIntoId: true,
            initialBudget: true,
            budgetRemaining: true,
            submissionCount: true,
            bestValue: true,
            bestKind: true,
            bestAt: true,
            remeasures: true,
            lastSubmissionAt: true,
            _count: { select: { members: true } },
          },
        }),
      ),
    );
    if (a.mergedIntoId || b.mergedIntoId) throw new AppError("conflict", "one of the teams was merged meanwhile; reload and try again");
    if (a._count.members + b._count.members > competition.maxTeamSize)
      throw new AppError("conflict", `the merged team would have ${a._count.members + b._count.members} members; the limit is ${competition.maxTeamSize}`);
    const submissions = a.submissionCount + b.submissionCount;
    if (submissions > competition.dailySubmissionLimit * days) {
      throw new AppError(
        "conflict",
        `the merged team would have ${submissions} submissions, more than the daily cap × days elapsed (${competition.dailySubmissionLimit} × ${days})`,
      );
    }
    const [spentA, spentB] = [a, b].map((t) => t.initialBudget - t.budgetRemaining);
    if (spentA + spentB > a.initialBudget) {
      throw new AppError(
        "conflict",
        `the two teams received ${spentA} + ${spentB} = ${spentA + spentB} holdout answers, more than the budget of ${a.initialBudget} one team may hold; they cannot merge`,
      );
    }
    if (a.remeasures + b.remeasures > a.initialBudget) {
      throw new AppError(
        "conflict",
        `the two teams' leaderboard scores were re-measured ${a.remeasures} + ${b.remeasures} = ${a.remeasures + b.remeasures} times, more than the ${a.initialBudget} one team may receive; they cannot merge`,
      );
    }
    const rowOf = (t: typeof a): BoardRow | null => (t.bestValue === null ? null : { value: t.bestValue, kind: t.bestKind as BoardKind, at: t.bestAt! });
    const best = mergeBoardRows(rowOf(a), rowOf(b), metricOf(competition).direction);
    await tx.teamMember.updateMany({ where: { teamId: b.id }, data: { teamId: a.id } });
    await tx.submission.updateMany({ where: { teamId: b.id }, data: { teamId: a.id } });
    await tx.team.update({
      where: { id: a.id },
      data: {
        budgetRemaining: a.initialBudget - spentA - spentB,
        submissionCount: submissions,
        bestValue: best?.value ?? null,
        bestKind: best?.kind ?? null,
        bestAt: best?.at ?? null,
        remeasures: a.remeasures + b.remeasures,
        lastSubmissionAt: [a.lastSubmissionAt, b.lastSubmissionAt].filter(Boolean).sort((x, y) => y!.getTime() - x!.getTime())[0] ?? null,
      },
    });
    await tx.team.update({ where: { id: b.id }, data: { mergedIntoId: a.id, budgetRemaining: 0 } });
  });
  return (await getMyTeam(user, slug))!;
}

/** The caller's team in this competition, or null. */
export async function getMyTeam(user: PublicUser, slug: string): Promise<TeamView | null> {
  const competition = await getVisibleCompetition(user, slug);
  const member = await membership(user.id, competition.id);
  if (!member) return null;
  const team = await db.team.findUniqueOrThrow({
    where: { id: member.teamId },
    select: {
      id: true,
      name: true,
      inviteCode: true,
      initialBudget: true,
      budgetRemaining: true,
      submissionCount: true,
      queryCount: true,
      members: { select: { user: { select: { name: true } } }, orderBy: { acceptedRulesAt: "asc" } },
    },
  });
  return {
    id: team.id,
    name: team.name,
    inviteCode: team.inviteCode,
    members: team.members.map((m) => ({ name: m.user.name })),
    budget: { remaining: team.budgetRemaining, initial: team.initialBudget },
    submissions: team.submissionCount,
    scored: competition.maxQueries === null ? null : { used: Math.min(team.queryCount, competition.maxQueries), limit: competition.maxQueries },
    limits: await dailyLimits(db, team.id, competition.dailySubmissionLimit, new Date()),
  };
}

/**
 * POST …/teams/{teamId}/disqualify `{reason}` (organizers): the team leaves the live and final
 * boards and cannot submit; its budget is not restored (what it learned stays learned). DELETE
 * reinstates it. The reason is shown on the team's page.
 */
export async function setDisqualified(
  user: PublicUser,
  slug: string,
  teamId: string,
  input: unknown | null,
): Promise<{ id: string; name: string; disqualified: { at: string; reason: string } | null }> {
  const competition = await requireOrganizer(user, slug);
  const reason = input === null ? null : disqualifySchema.parse(input).reason;
  if (!isUuid(teamId)) throw new AppError("not_found", "no such team in this competition");
  const team = await db.team.findFirst({ where: { id: teamId, competitionId: competition.id, mergedIntoId: null }, select: { id: true } });
  if (!team) throw new AppError("not_found", "no such team in this competition");
  const updated = await db.team.update({
    where: { id: teamId },
    data: { disqualifiedAt: reason === null ? null : new Date(), disqualifyReason: reason },
    select: { id: true, name: true, disqualifiedAt: true, disqualifyReason: true },
  });
  return { id: updated.id, name: updated.name, disqualified: updated.disqualifiedAt ? { at: updated.disqualifiedAt.toISOString(), reason: updated.disqualifyReason ?? "" } : null };
}
