import "server-only";
import { Readable } from "node:stream";
import type { PublicUser } from "@/lib/server/accounts/users";
import { getVisibleCompetition, isOrganizer } from "@/lib/server/competitions/competitions";
import { unpackKept } from "@/lib/server/platform/csv-upload";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { fileStore, moveToStore, sweepStore } from "@/lib/server/platform/files";
import { log } from "@/lib/server/platform/log";
import type { PeriodicJob } from "@/lib/server/platform/periodic";
import { sweepSolutionFiles } from "@/lib/server/competitions/solutions";
import { isUuid } from "@/lib/validation/ids";

/**
 * A submission's file as kept: its compressed copy (platform/csv-upload.ts) in the file store under
 * `submissions/<competition>/<submission>`, named by its row (submission_files.storage_key for a
 * scored submission, unranked_submissions.storage_key for a late or sandbox one).
 */
export type KeptSubmission = { id: string; storageKey: string };

/**
 * Keeps a submission's file: writes its compressed copy to the store first, then runs `record`, the
 * transaction that commits the submission's row naming it, so that no answered submission is ever
 * without its file. When `record` fails, or answers without a row of its own (`recorded` false: a
 * repeated Idempotency-Key answered again), the copy is removed at once, unless a row names it after
 * all (a commit whose answer was lost); when that cannot be checked (the database gone), it stays
 * for sweepSubmissionFiles, which removes it within hours.
 */
export async function keepSubmissionFile<T>(
  where: { competitionId: string; id: string; compressed: Uint8Array },
  record: (kept: KeptSubmission) => Promise<T>,
  recorded: (result: T) => boolean,
): Promise<T> {
  const storageKey = `submissions/${where.competitionId}/${where.id}`;
  await fileStore().put(storageKey, Readable.from([where.compressed]));
  const forget = async () => {
    try {
      const [{ named }] = await db.$queryRaw<{ named: boolean }[]>`
        SELECT EXISTS (SELECT 1 FROM submission_files WHERE submission_id = ${where.id}::uuid) OR EXISTS (SELECT 1 FROM unranked_submissions WHERE id = ${where.id}::uuid) AS named`;
      if (!named) await fileStore().delete(storageKey);
    } catch (error) {
      log.warn({ key: storageKey, err: (error as Error).message }, "a submission's file with no row stays in the file store until the sweep");
    }
  };
  let result: T;
  try {
    result = await record({ id: where.id, storageKey });
  } catch (error) {
    await forget();
    throw error;
  }
  if (!recorded(result)) await forget();
  return result;
}

/**
 * GET …/submissions/{id}/file: the uploaded file, byte for byte, for the members of the team that
 * submitted it and for the organizers (late submissions too; sandbox tests: organizers only). Files
 * are kept compressed in the file store; the answer streams them unpacked (platform/csv-upload.ts
 * unpackKept). `size` is the original byte count (the answer's Content-Length).
 */
export async function getSubmissionFile(user: PublicUser, slug: string, submissionId: string): Promise<{ filename: string; size: number; body: ReadableStream<Uint8Array> }> {
  const competition = await getVisibleCompetition(user, slug);
  const organizer = await isOrganizer(user, competition.id);
  const notFound = new AppError("not_found", "no such submission in your team");
  if (!isUuid(submissionId)) throw notFound;
  const where = { id: submissionId, competitionId: competition.id };
  const scored = await db.submission.findFirst({ where, select: { teamId: true, filename: true, file: { select: { size: true, storageKey: true } } } });
  const unranked = scored ? null : await db.unrankedSubmission.findFirst({ where, select: { teamId: true, filename: true, fileSize: true, storageKey: true } });
  const found = scored
    ? { teamId: scored.teamId, filename: scored.filename, size: scored.file?.size ?? null, storageKey: scored.file?.storageKey ?? null }
    : unranked && { teamId: unranked.teamId, filename: unranked.filename, size: unranked.fileSize, storageKey: unranked.storageKey };
  if (!found) throw notFound;
  if (!organizer) {
    const member = await db.teamMember.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } }, select: { teamId: true } });
    if (found.teamId === null || member?.teamId !== found.teamId) throw notFound;
  }
  if (found.size === null) throw new AppError("not_found", "this submission was made before files were kept");
  if (found.storageKey === null) throw new AppError("unavailable", "the file is being moved into the file store; try again in a minute", { retryAfter: 60 });
  return { filename: found.filename ?? "submission.csv", size: found.size, body: await unpackKept(await fileStore().get(found.storageKey)) };
}

/**
 * At a start: moves the submissions' files kept in the database before the file store held them
 * into the store (platform/files.ts moveToStore: idempotent, safe to interrupt); how many it moved.
 */
export async function moveSubmissionFilesToStore(): Promise<number> {
  const scored = await moveToStore({
    table: "submission_files",
    id: "submission_id",
    bytes: "data",
    key: "storage_key",
    keyOf: `'submissions/' || (SELECT competition_id FROM submissions s WHERE s.id = submission_id) || '/' || submission_id`,
  });
  const unranked = await moveToStore({ table: "unranked_submissions", id: "id", bytes: "file_data", key: "storage_key", keyOf: `'submissions/' || competition_id || '/' || id` });
  return scored + unranked;
}

/**
 * Removes the submissions' files that no row names, written over an hour before `now`
 * (platform/files.ts sweepStore): what an app killed between writing a file and committing its row
 * left, and the files of submissions deleted with their competition, team or account.
 */
export async function sweepSubmissionFiles(now = new Date()): Promise<number> {
  return sweepStore(
    "submissions/",
    async (keys) => {
      const ids = keys.map((key) => key.split("/")[2]).filter(isUuid);
      const rows = await db.$queryRaw<{ key: string }[]>`
        SELECT storage_key AS key FROM submission_files WHERE submission_id = ANY(${ids}::uuid[]) AND storage_key IS NOT NULL
        UNION ALL SELECT storage_key FROM unranked_submissions WHERE id = ANY(${ids}::uuid[]) AND storage_key IS NOT NULL`;
      return new Set(rows.map((r) => r.key));
    },
    now,
  );
}

/**
 * The file store's sweep of the submissions' and solutions' files no row names, over an hour old:
 * the scheduler's job (closing/scheduler.ts), done every 6 hours by one app instance of however many
 * (platform/periodic.ts).
 */
export const storeSweep: PeriodicJob = {
  name: "store-sweep",
  periodMs: 6 * 60 * 60 * 1000,
  run: (now) => Promise.all([sweepSolutionFiles(now), sweepSubmissionFiles(now)]),
};
