import "server-only";
import { requireAccess } from "./access";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { getVisibleCompetition, requireOrganizer, isOrganizer } from "./competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { safeFilename } from "@/lib/validation/files";
import { isUuid } from "@/lib/validation/ids";

export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

export type AttachmentSummary = { id: string; filename: string; contentType: string; size: number; createdAt: Date };

const SUMMARY = { id: true, filename: true, contentType: true, size: true, createdAt: true } as const;

/** Attaches a public data file (replacing one of the same name). */
export async function addAttachment(user: PublicUser, slug: string, file: { name: string; type: string; bytes: Uint8Array<ArrayBuffer> }): Promise<AttachmentSummary> {
  const competition = await requireOrganizer(user, slug);
  if (file.bytes.byteLength > MAX_ATTACHMENT_BYTES) throw new AppError("payload_too_large", `attachments are limited to ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB`);
  const filename = safeFilename(file.name);
  if (!filename) throw new AppError("unprocessable_entity", "the file needs a name");
  const data = { contentType: file.type || "application/octet-stream", size: file.bytes.byteLength, data: file.bytes };
  return db.attachment.upsert({
    where: { competitionId_filename: { competitionId: competition.id, filename } },
    create: { competitionId: competition.id, filename, ...data },
    update: data,
    select: SUMMARY,
  });
}

export async function listAttachments(competitionId: string): Promise<AttachmentSummary[]> {
  return db.attachment.findMany({ where: { competitionId }, orderBy: { filename: "asc" }, select: SUMMARY });
}

/**
 * A file for download: for its organizers, and for competitors who accepted the rules (are in a
 * team) and meet the competition's access rules.
 */
export async function getAttachment(viewer: PublicUser | null, slug: string, id: string) {
  const competition = await getVisibleCompetition(viewer, slug);
  const organizer = await isOrganizer(viewer, competition.id);
  if (!organizer) {
    if (!viewer) throw new AppError("unauthorized", "sign in and join a team (accepting the rules) to download the data");
    const member = await db.teamMember.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: viewer.id } }, select: { teamId: true } });
    if (!member) throw new AppError("forbidden", "accept the rules (create or join a team) to download the data");
    await requireAccess(viewer, competition);
  }
  if (!isUuid(id)) throw new AppError("not_found", "no such file");
  const file = await db.attachment.findFirst({ where: { id, competitionId: competition.id }, select: { filename: true, contentType: true, data: true } });
  if (!file) throw new AppError("not_found", "no such file");
  return file;
}

export async function deleteAttachment(user: PublicUser, slug: string, id: string): Promise<void> {
  const competition = await requireOrganizer(user, slug);
  if (!isUuid(id)) throw new AppError("not_found", "no such file");
  const { count } = await db.attachment.deleteMany({ where: { id, competitionId: competition.id } });
  if (count === 0) throw new AppError("not_found", "no such file");
}
