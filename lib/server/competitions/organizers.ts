import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { type CompetitionRow, lockParticipant, type OrganizedCompetition, requireOrganizer } from "./competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { appLink, message } from "@/lib/server/platform/mail";
import { sendMails } from "@/lib/server/platform/outbox";
import { consumeRateLimit } from "@/lib/server/platform/rate-limit";
import type { OrganizersView } from "@/lib/responses";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { InvitationInput, InviteOrganizerInput } from "@/lib/validation/competitions";
import { isUuid } from "@/lib/validation/ids";

// Who organizes a competition. Organizers see every raw score, the sandbox's exact holdout scores
// and the holdout's health, so nobody organizes a competition in which they compete, and nobody
// becomes an organizer without seeing it: an organizer invites an address, a mail carries a
// single-use link, and the account with that address accepts (docs/api.md, Organizers).

const INVITATION_DAYS = 7;
const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Inside a transaction, under the participant's lock (lockParticipant): 403 when the user organizes
 * the competition or ever did (a removed co-organizer saw its raw scores), or is an admin: they may
 * not compete in it. Creating and joining a team ask it (teams/teams.ts).
 */
export async function refuseOrganizer(tx: Prisma.TransactionClient, user: PublicUser, competitionId: string): Promise<void> {
  if (user.role === "admin") throw new AppError("forbidden", "admins see every raw score, so they cannot compete in this competition");
  const role = await tx.competitionOrganizer.findUnique({ where: { competitionId_userId: { competitionId, userId: user.id } }, select: { removedAt: true } });
  if (role) {
    throw new AppError(
      "forbidden",
      role.removedAt
        ? "you organized this competition and saw its raw scores, so you cannot compete in it"
        : "organizers see raw scores, so they cannot compete in this competition",
    );
  }
}

/**
 * GET …/organizers: the organizers (the creator first, and those who accepted and were not removed),
 * the pending invitations, and whether `viewer` may remove co-organizers (the creator and admins).
 */
export async function listOrganizers(competition: OrganizedCompetition, viewer: PublicUser): Promise<OrganizersView> {
  const [organizers, invitations] = await Promise.all([
    db.competitionOrganizer.findMany({
      where: { competitionId: competition.id, removedAt: null },
      orderBy: { createdAt: "asc" },
      select: { user: { select: { id: true, name: true, email: true } } },
    }),
    db.organizerInvitation.findMany({
      where: { competitionId: competition.id, acceptedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "asc" },
      select: { id: true, email: true, expiresAt: true, invitedBy: { select: { name: true } } },
    }),
  ]);
  return {
    organizers: organizers
      .map(({ user }) => ({ userId: user.id, name: user.name, email: user.email, creator: user.id === competition.createdById }))
      .sort((a, b) => Number(b.creator) - Number(a.creator)),
    invitations: invitations.map((i) => ({ id: i.id, email: i.email, invitedBy: i.invitedBy.name, expiresAt: i.expiresAt.toISOString() })),
    mayRemove: mayRemoveOrganizers(viewer, competition),
  };
}

/** Only the creator removes co-organizers (and admins, who organize every competition). */
function mayRemoveOrganizers(user: PublicUser, competition: Pick<CompetitionRow, "createdById">): boolean {
  return user.role === "admin" || user.id === competition.createdById;
}

/**
 * POST …/organizers `{email}` (organizers): mails an invitation to the address, replacing a pending
 * one. The answer is the same whether or not an account has the address (an invitation tells
 * nobody who has an account); 409 when that address already organizes the competition or belongs
 * to one of its teams (organizers cannot compete). Limited per inviter (each sends a mail).
 */
export async function inviteOrganizer(user: PublicUser, slug: string, { email }: InviteOrganizerInput): Promise<{ email: string; status: "invited"; expiresAt: string }> {
  const competition = await requireOrganizer(user, slug);
  const account = await db.user.findUnique({
    where: { email },
    select: {
      organizing: { where: { competitionId: competition.id, removedAt: null }, select: { userId: true } },
      memberships: { where: { competitionId: competition.id }, select: { team: { select: { name: true } } } },
    },
  });
  if (account?.organizing.length) throw new AppError("conflict", `${email} already organizes this competition`);
  const team = account?.memberships[0]?.team.name;
  if (team) throw new AppError("conflict", `${email} is in team ${team} of this competition: organizers see raw scores, so they cannot also compete`);
  await consumeRateLimit("invitations", user.id);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000);
  const [, invitation] = await db.$transaction([
    db.organizerInvitation.deleteMany({ where: { competitionId: competition.id, email, acceptedAt: null } }),
    db.organizerInvitation.create({ data: { competitionId: competition.id, email, invitedById: user.id, tokenHash: hash(token), expiresAt }, select: { id: true } }),
  ]);
  const mail = message({
    to: email,
    subject: `You are invited to organize ${competition.title} on Quiltboard`,
    name: email,
    paragraphs: [
      `${user.name} invited you to help organize ${competition.title} on Quiltboard.`,
      "Organizers see every raw score and the holdout's health, so they cannot take part in a competition they run: you can accept only while you are in none of its teams. If you have no account with this address yet, sign up with it first.",
    ],
    action: { label: "See the invitation", url: appLink(`/organizer-invitation?token=${token}`) },
    footer: `The link works once and expires in ${INVITATION_DAYS} days. If you do not know this competition, ignore this mail.`,
  });
  await sendMails([{ key: `invitation:${invitation.id}`, kind: "account", mail }]);
  return { email, status: "invited", expiresAt: expiresAt.toISOString() };
}

/** The pending invitation behind a link; 422 when it is unknown, used, withdrawn or expired. */
async function findInvitation(token: string) {
  const row = await db.organizerInvitation.findUnique({
    where: { tokenHash: hash(token) },
    select: {
      id: true,
      email: true,
      acceptedAt: true,
      expiresAt: true,
      competitionId: true,
      invitedById: true,
      invitedBy: { select: { name: true, role: true } },
      competition: { select: { slug: true, title: true } },
    },
  });
  if (!row || row.acceptedAt || row.expiresAt <= new Date()) {
    throw new AppError("unprocessable_entity", "this invitation is not valid any more: it was accepted, withdrawn, replaced or it expired; ask the organizers for a new one");
  }
  return row;
}

/** The invitation page's view of a link: the competition, who invited, and the address it was sent to. */
export async function describeInvitation({ token }: InvitationInput): Promise<{ slug: string; title: string; invitedBy: string; email: string }> {
  const row = await findInvitation(token);
  return { slug: row.competition.slug, title: row.competition.title, invitedBy: row.invitedBy.name, email: row.email };
}

/**
 * POST /api/v1/organizer-invitations/accept `{token}` (signed in, with the address invited): the
 * caller becomes an organizer (again, if they were removed). Under the participant's lock
 * (competitions.ts lockParticipant), so a team joined meanwhile cannot slip through: 409 while the
 * caller is in one of its teams. The one who invited must still organize the competition, checked
 * under a share lock on their organizer row, which a removal waits for: an invitation from a
 * removed co-organizer is dead (422).
 */
export async function acceptInvitation(user: PublicUser, { token }: InvitationInput): Promise<{ slug: string; title: string }> {
  const row = await findInvitation(token);
  if (row.email !== user.email) throw new AppError("forbidden", `this invitation was sent to ${row.email}: sign in with the account of that address to accept it`);
  await db.$transaction(async (tx) => {
    await lockParticipant(tx, row.competitionId, user.id);
    if (row.invitedBy.role !== "admin") {
      const inviter = await tx.$queryRaw<unknown[]>`
        SELECT 1 FROM competition_organizers WHERE competition_id = ${row.competitionId}::uuid AND user_id = ${row.invitedById}::uuid AND removed_at IS NULL FOR SHARE`;
      if (inviter.length === 0)
        throw new AppError(
          "unprocessable_entity",
          `this invitation is not valid any more: ${row.invitedBy.name}, who sent it, no longer organizes this competition; ask its organizers for a new one`,
        );
    }
    const member = await tx.teamMember.findUnique({
      where: { competitionId_userId: { competitionId: row.competitionId, userId: user.id } },
      select: { team: { select: { name: true } } },
    });
    if (member)
      throw new AppError(
        "conflict",
        `you are in team ${member.team.name} of this competition: organizers see raw scores, so they cannot compete; leave the team first (possible before its first submission)`,
      );
    const used = await tx.organizerInvitation.updateMany({ where: { id: row.id, acceptedAt: null }, data: { acceptedAt: new Date() } });
    if (used.count === 0) throw new AppError("unprocessable_entity", "this invitation was just used");
    await tx.competitionOrganizer.upsert({
      where: { competitionId_userId: { competitionId: row.competitionId, userId: user.id } },
      create: { competitionId: row.competitionId, userId: user.id },
      update: { removedAt: null },
    });
  });
  return { slug: row.competition.slug, title: row.competition.title };
}

/**
 * DELETE …/organizers/{userId}: the creator (or an admin) removes a co-organizer; nobody removes the
 * creator (403 for anyone else, 409 for the creator). The removed co-organizer keeps the mark of
 * having organized (refuseOrganizer), and the invitations they sent that are still pending are
 * withdrawn with the removal.
 */
export async function removeOrganizer(caller: PublicUser, competition: OrganizedCompetition, userId: string): Promise<void> {
  const notFound = new AppError("not_found", "no such organizer of this competition");
  if (!mayRemoveOrganizers(caller, competition)) throw new AppError("forbidden", "only the competition's creator removes co-organizers");
  if (!isUuid(userId)) throw notFound;
  if (userId === competition.createdById) throw new AppError("conflict", "the creator of a competition stays one of its organizers");
  await db.$transaction(async (tx) => {
    const removed = await tx.competitionOrganizer.updateMany({ where: { competitionId: competition.id, userId, removedAt: null }, data: { removedAt: new Date() } });
    if (removed.count === 0) throw notFound;
    await tx.organizerInvitation.deleteMany({ where: { competitionId: competition.id, invitedById: userId, acceptedAt: null } });
  });
}

/** DELETE …/organizers/invitations/{id} (organizers): withdraws a pending invitation; its link stops working. */
export async function withdrawInvitation(competition: OrganizedCompetition, id: string): Promise<void> {
  const notFound = new AppError("not_found", "no such pending invitation");
  if (!isUuid(id)) throw notFound;
  const { count } = await db.organizerInvitation.deleteMany({ where: { id, competitionId: competition.id, acceptedAt: null } });
  if (count === 0) throw notFound;
}
