import "server-only";
import { Readable } from "node:stream";
import { createGunzip, createZstdDecompress } from "node:zlib";
import type { PublicUser } from "@/lib/server/accounts/users";
import { getVisibleCompetition, isOrganizer } from "@/lib/server/competitions/competitions";
import { db, streamSlices } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/validation/ids";

/** The first bytes of a zstd frame (RFC 8878 §3.1.1); a gzip member starts 1f 8b (RFC 1952 §2.3.1). */
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/**
 * GET …/submissions/{id}/file: the uploaded file, byte for byte, for the members of the team that
 * submitted it and for the organizers (late submissions too; sandbox tests: organizers only). Files
 * are kept compressed: zstd frames (platform/csv-upload.ts), or gzip members for those kept before
 * Quiltboard moved to Node 24, which stay as they were; the first bytes say which. The answer
 * streams: the compressed bytes are read from the database a slice at a time and unpacked as the
 * client reads, so a slow download of a file that unpacks to far more than it takes holds a slice
 * and the decompressor's window, not the file. `size` is the original byte count (the answer's
 * Content-Length).
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
  const [{ compressed, head }] = await db.$queryRaw<
    { compressed: number; head: Uint8Array }[]
  >`SELECT octet_length(blob)::int AS compressed, substring(blob FROM 1 FOR 4) AS head FROM (${found.stored}) stored`;
  const stored = streamSlices(compressed, async (offset, length) => {
    const [row] = await db.$queryRaw<{ slice: Uint8Array }[]>`SELECT substring(blob FROM ${offset + 1}::int FOR ${length}::int) AS slice FROM (${found.stored}) stored`;
    return row.slice;
  });
  const unpack = Buffer.from(head).equals(ZSTD_MAGIC) ? createZstdDecompress() : createGunzip();
  const body = Readable.toWeb(Readable.fromWeb(stored as import("node:stream/web").ReadableStream<Uint8Array>).pipe(unpack)) as ReadableStream<Uint8Array>;
  return { filename: found.filename ?? "submission.csv", size: found.size, body };
}
