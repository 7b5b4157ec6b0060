import "server-only";
import type { PublicUser } from "@/lib/server/accounts/users";
import { getVisibleCompetition, isOrganizer } from "@/lib/server/competitions/competitions";
import { db, streamStoredFile } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/validation/ids";

/**
 * GET …/submissions/{id}/file: the uploaded file, byte for byte, for the members of the team that
 * submitted it and for the organizers (late submissions too; sandbox tests: organizers only). Files
 * are kept compressed; the answer streams them unpacked (platform/db.ts streamStoredFile). `size` is
 * the original byte count (the answer's Content-Length).
 */
export async function getSubmissionFile(user: PublicUser, slug: string, submissionId: string): Promise<{ filename: string; size: number; body: ReadableStream<Uint8Array> }> {
  const competition = await getVisibleCompetition(user, slug);
  const organizer = await isOrganizer(user, competition.id);
  const notFound = new AppError("not_found", "no such submission in your team");
  if (!isUuid(submissionId)) throw notFound;
  const where = { id: submissionId, competitionId: competition.id };
  const scored = await db.submission.findFirst({ where, select: { teamId: true, filename: true, file: { select: { size: true } } } });
  const unranked = scored ? null : await db.unrankedSubmission.findFirst({ where, select: { teamId: true, filename: true, fileSize: true } });
  const found = scored
    ? {
        teamId: scored.teamId,
        filename: scored.filename,
        size: scored.file?.size ?? null,
        stored: Prisma.sql`SELECT data AS blob FROM submission_files WHERE submission_id = ${submissionId}::uuid`,
      }
    : unranked && {
        teamId: unranked.teamId,
        filename: unranked.filename,
        size: unranked.fileSize,
        stored: Prisma.sql`SELECT file_data AS blob FROM unranked_submissions WHERE id = ${submissionId}::uuid`,
      };
  if (!found) throw notFound;
  if (!organizer) {
    const member = await db.teamMember.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } }, select: { teamId: true } });
    if (found.teamId === null || member?.teamId !== found.teamId) throw notFound;
  }
  if (found.size === null) throw new AppError("not_found", "this submission was made before files were kept");
  return { filename: found.filename ?? "submission.csv", size: found.size, body: await streamStoredFile(found.stored) };
}
