import "server-only";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { PublicUser } from "@/lib/server/accounts/users";
import { getVisibleCompetition, isOrganizer } from "@/lib/server/competitions/competitions";
import { db, streamSlices } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/validation/ids";

/**
 * GET …/submissions/{id}/file: the uploaded file, byte for byte, for the members of the team that
 * submitted it and for the organizers (late submissions too; sandbox tests: organizers only). Files
 * are kept gzip-compressed; the answer streams: the compressed bytes are read from the database a
 * slice at a time and unpacked as the client reads, so a slow download of a file that unpacks to
 * far more than it takes holds a slice and zlib's window, not the file. `size` is the original
 * byte count (the answer's Content-Length).
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
  const [{ compressed }] = await db.$queryRaw<{ compressed: number }[]>`SELECT octet_length(blob)::int AS compressed FROM (${found.stored}) stored`;
  const gzip = streamSlices(compressed, async (offset, length) => {
    const [row] = await db.$queryRaw<{ slice: Uint8Array }[]>`SELECT substring(blob FROM ${offset + 1}::int FOR ${length}::int) AS slice FROM (${found.stored}) stored`;
    return row.slice;
  });
  const body = Readable.toWeb(Readable.fromWeb(gzip as import("node:stream/web").ReadableStream<Uint8Array>).pipe(createGunzip())) as ReadableStream<Uint8Array>;
  return { filename: found.filename ?? "submission.csv", size: found.size, body };
}
