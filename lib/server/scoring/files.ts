import "server-only";
import { promisify } from "node:util";
import { gunzip as gunzipCallback } from "node:zlib";
import type { PublicUser } from "@/lib/server/accounts/users";
import { getVisibleCompetition, isOrganizer } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { isUuid } from "@/lib/validation/ids";

const gunzip = promisify(gunzipCallback);

/**
 * GET …/submissions/{id}/file: the uploaded file, byte for byte, for the members of the team that
 * submitted it and for the organizers (late submissions too; sandbox tests: organizers only).
 */
export async function getSubmissionFile(user: PublicUser, slug: string, submissionId: string): Promise<{ filename: string; bytes: Buffer }> {
  const competition = await getVisibleCompetition(user, slug);
  const organizer = await isOrganizer(user, competition.id);
  const notFound = new AppError("not_found", "no such submission in your team");
  if (!isUuid(submissionId)) throw notFound;
  const where = { id: submissionId, competitionId: competition.id };
  const scored = await db.submission.findFirst({ where, select: { teamId: true, filename: true, file: { select: { data: true } } } });
  const unranked = scored ? null : await db.unrankedSubmission.findFirst({ where, select: { teamId: true, filename: true, fileData: true } });
  const found = scored
    ? { teamId: scored.teamId, filename: scored.filename, data: scored.file?.data }
    : unranked && { teamId: unranked.teamId, filename: unranked.filename, data: unranked.fileData };
  if (!found) throw notFound;
  if (!organizer) {
    const member = await db.teamMember.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } }, select: { teamId: true } });
    if (found.teamId === null || member?.teamId !== found.teamId) throw notFound;
  }
  if (!found.data) throw new AppError("not_found", "this submission was made before files were kept");
  return { filename: found.filename ?? "submission.csv", bytes: await gunzip(found.data) };
}
