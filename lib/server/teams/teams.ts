import "server-only";
import { randomBytes } from "node:crypto";
import { requireAccess } from "@/lib/server/competitions/access";
import { dailyLimits } from "./daily-cap";
import { db, isUniqueViolation, lockTeam, shareCompetition } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { appLink, type MailKind, message } from "@/lib/server/platform/mail";
import { sendMails } from "@/lib/server/platform/outbox";
import { getVisibleCompetition, lockParticipant, requireOrganizer } from "@/lib/server/competitions/competitions";
import { refuseOrganizer } from "@/lib/server/competitions/organizers";
import type { PublicUser } from "@/lib/server/accounts/users";
import { requireOpenCompetition } from "@/lib/server/competitions/lifecycle";
import { isUuid } from "@/lib/validation/ids";
import type { CreateTeamInput, DisqualifyInput, InviteCodeInput } from "@/lib/validation/teams";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TeamView } from "@/lib/responses";

/** A new invite code: 72 random bits. */
export function newInviteCode(): string {
  return randomBytes(9).toString("base64url");
}

/** The user's team in the competition, or null. */
export async function membership(client: Pick<Prisma.TransactionClient, "teamMember">, userId: string, competitionId: string) {
  return client.teamMember.findUnique({ where: { competitionId_userId: { competitionId, userId } }, select: { teamId: true } });
}

/**
 * Creates a team (accepting the rules); the creator is its first member. Under the participant's
 * lock (competitions/competitions.ts lockParticipant), so an invitation to organize accepted meanwhile cannot
 * leave them both competing and organizing.
 */
export async function createTeam(user: PublicUser, slug: string, { name }: CreateTeamInput): Promise<{ id: string; name: string; inviteCode: string }> {
  const competition = await requireOpenCompetition(user, slug);
  await requireAccess(user, competition);
  try {
    return await db.$transaction(async (tx) => {
      await lockParticipant(tx, competition.id, user.id);
      await refuseOrganizer(tx, user, competition.id);
      if (await membership(tx, user.id, competition.id)) throw new AppError("conflict", "you are already in a team in this competition");
      return tx.team.create({
        data: {
          competitionId: competition.id,
          name,
          inviteCode: newInviteCode(),
          initialBudget: competition.budget!,
          budgetRemaining: competition.budget!,
          members: { create: { competitionId: competition.id, userId: user.id } },
        },
        select: { id: true, name: true, inviteCode: true },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `a team called "${name}" already exists here`);
    throw error;
  }
}

/** The team still playing with this invite code (a merged team's code is dead); 404 otherwise. */
export async function teamByCode(client: Pick<Prisma.TransactionClient, "team">, competitionId: string, inviteCode: string): Promise<{ id: string; name: string }> {
  const team = await client.team.findFirst({ where: { competitionId, inviteCode, mergedIntoId: null }, select: { id: true, name: true } });
  if (!team) throw new AppError("not_found", "no team with that invite code in this competition");
  return team;
}

/**
 * Joins a team by its invite code (accepting the rules), within the team size limit. The size is
 * counted under the team's row lock, so concurrent joins cannot pass the limit together; a
 * disqualified team takes no one.
 */
export async function joinTeam(user: PublicUser, slug: string, { inviteCode }: InviteCodeInput): Promise<{ id: string; name: string }> {
  const competition = await requireOpenCompetition(user, slug);
  await requireAccess(user, competition);
  return db.$transaction(async (tx) => {
    await lockParticipant(tx, competition.id, user.id);
    await refuseOrganizer(tx, user, competition.id);
    if (await membership(tx, user.id, competition.id)) throw new AppError("conflict", "you are already in a team in this competition");
    const { id } = await teamByCode(tx, competition.id, inviteCode);
    await lockTeam(tx, id);
    const team = await tx.team.findUniqueOrThrow({ where: { id }, select: { name: true, mergedIntoId: true, disqualifiedAt: true, _count: { select: { members: true } } } });
    if (team.mergedIntoId) throw new AppError("not_found", "no team with that invite code in this competition");
    if (team.disqualifiedAt) throw new AppError("conflict", "that team was disqualified by the organizers; it takes no new members");
    if (team._count.members >= competition.maxTeamSize) throw new AppError("conflict", `the team is full (at most ${competition.maxTeamSize} members)`);
    await tx.teamMember.create({ data: { competitionId: competition.id, userId: user.id, teamId: id } });
    return { id, name: team.name };
  });
}

/**
 * Leaves one's team; allowed only before the team's first submission, and never from a disqualified
 * team (its members would start afresh in a new one). An emptied team is removed.
 */
export async function leaveTeam(user: PublicUser, slug: string): Promise<void> {
  const competition = await getVisibleCompetition(user, slug);
  const member = await membership(db, user.id, competition.id);
  if (!member) throw new AppError("not_found", "you are not in a team in this competition");
  await db.$transaction(async (tx) => {
    await lockTeam(tx, member.teamId);
    const team = await tx.team.findUniqueOrThrow({
      where: { id: member.teamId },
      select: { submissionCount: true, disqualifiedAt: true, disqualifyReason: true, _count: { select: { members: true } } },
    });
    if (team.disqualifiedAt) throw new AppError("conflict", `your team was disqualified by the organizers ("${team.disqualifyReason ?? ""}"); its members cannot leave it`);
    if (team.submissionCount > 0) throw new AppError("conflict", "you cannot leave a team that has already submitted");
    await tx.teamMember.delete({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } } });
    if (team._count.members === 1) await tx.team.delete({ where: { id: member.teamId } });
  });
}

/** The caller's team in this competition, or null: with its daily cap, a disqualification, and the pending merge requests in and out. */
export async function getMyTeam(user: PublicUser, slug: string): Promise<TeamView | null> {
  const competition = await getVisibleCompetition(user, slug);
  const member = await membership(db, user.id, competition.id);
  if (!member) return null;
  const [team, requests] = await Promise.all([
    db.team.findUniqueOrThrow({
      where: { id: member.teamId },
      select: {
        id: true,
        name: true,
        inviteCode: true,
        initialBudget: true,
        budgetRemaining: true,
        submissionCount: true,
        queryCount: true,
        disqualifiedAt: true,
        disqualifyReason: true,
        members: { select: { user: { select: { name: true } } }, orderBy: { acceptedRulesAt: "asc" } },
      },
    }),
    db.mergeRequest.findMany({
      where: { status: "pending", OR: [{ fromTeamId: member.teamId }, { toTeamId: member.teamId }] },
      orderBy: { createdAt: "asc" },
      select: { id: true, createdAt: true, fromTeam: { select: { id: true, name: true } }, toTeam: { select: { id: true, name: true } }, requestedBy: { select: { name: true } } },
    }),
  ]);
  const view = (r: (typeof requests)[number], other: { id: string; name: string }) => ({
    id: r.id,
    team: other.name,
    teamId: other.id,
    requestedBy: r.requestedBy.name,
    createdAt: r.createdAt.toISOString(),
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
    disqualified: team.disqualifiedAt ? { at: team.disqualifiedAt.toISOString(), reason: team.disqualifyReason ?? "" } : null,
    mergeRequests: {
      incoming: requests.filter((r) => r.toTeam.id === team.id).map((r) => view(r, r.fromTeam)),
      outgoing: requests.filter((r) => r.fromTeam.id === team.id).map((r) => view(r, r.toTeam)),
    },
  };
}

/** The 403 a disqualified team's members get when they submit, with the organizers' reason. */
export function disqualifiedError(reason: string | null): AppError {
  return new AppError("forbidden", `your team was disqualified by the organizers: ${reason ?? ""}`);
}

/** Mails every member of a team (a disqualification, a merge request, its answer) once for `event` (the outbox's key with each member's id). */
export async function mailTeam(teamId: string, mail: { event: string; kind: MailKind; subject: string; paragraphs: string[]; slug: string }): Promise<void> {
  const members = await db.teamMember.findMany({ where: { teamId }, select: { user: { select: { id: true, email: true, name: true } } } });
  await sendMails(
    members.map(({ user }) => ({
      key: `${mail.event}:${user.id}`,
      kind: mail.kind,
      userId: user.id,
      mail: message({
        to: user.email,
        subject: mail.subject,
        name: user.name,
        paragraphs: mail.paragraphs,
        action: { label: "Open the competition", url: appLink(`/competitions/${mail.slug}`) },
      }),
    })),
  );
}

/**
 * POST …/teams/{teamId}/disqualify `{reason}` (organizers): the team leaves the live and final
 * boards and cannot submit; its budget is not restored (what it learned stays learned). DELETE
 * reinstates it. The members are told by mail, and the reason is shown on the team's page and in
 * their GET …/team.
 */
export async function setDisqualified(
  user: PublicUser,
  slug: string,
  teamId: string,
  input: DisqualifyInput | null,
): Promise<{ id: string; name: string; disqualified: { at: string; reason: string } | null }> {
  const competition = await requireOrganizer(user, slug);
  const reason = input?.reason ?? null;
  if (!isUuid(teamId)) throw new AppError("not_found", "no such team in this competition");
  // The competition's key-share lock first, as scoring and merges take it: the update bumps the
  // board's version on the competition row (boards/ranking.ts), and a close holding that row while
  // it writes the teams' rows must not wait for this team's row meanwhile. Then the team's row lock,
  // which a merge holds while it moves the members: a team merged meanwhile is refused, naming the
  // team its members are in now.
  const updated = await db.$transaction(async (tx) => {
    await shareCompetition(tx, competition.id);
    await lockTeam(tx, teamId);
    const team = await tx.team.findFirst({ where: { id: teamId, competitionId: competition.id }, select: { mergedIntoId: true } });
    if (!team) throw new AppError("not_found", "no such team in this competition");
    if (team.mergedIntoId) {
      const into = await tx.team.findUniqueOrThrow({ where: { id: team.mergedIntoId }, select: { id: true, name: true } });
      throw new AppError("conflict", `this team merged into team ${into.name} (${into.id}), which its members are in now; disqualify that team if it should go`);
    }
    return tx.team.update({
      where: { id: teamId },
      data: { disqualifiedAt: reason === null ? null : new Date(), disqualifyReason: reason },
      select: { id: true, name: true, disqualifiedAt: true, disqualifyReason: true },
    });
  });
  await mailTeam(teamId, {
    event: `${reason === null ? "reinstated" : "disqualified"}:${teamId}:${Date.now()}`,
    kind: "account",
    slug: competition.slug,
    subject: reason === null ? `Your team was reinstated in ${competition.title}` : `Your team was disqualified from ${competition.title}`,
    paragraphs:
      reason === null
        ? [`The organizers of ${competition.title} reinstated your team ${updated.name}: it is back on the leaderboard and can submit again.`]
        : [
            `The organizers of ${competition.title} disqualified your team ${updated.name}: "${reason}".`,
            "Your team is off the live and final leaderboards and cannot submit. If you think this is a mistake, write to the organizers.",
          ],
  });
  return { id: updated.id, name: updated.name, disqualified: updated.disqualifiedAt ? { at: updated.disqualifiedAt.toISOString(), reason: updated.disqualifyReason ?? "" } : null };
}
