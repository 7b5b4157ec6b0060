import "server-only";
import { randomUUID } from "node:crypto";
import { requireAccess } from "./access";
import { db, nameLock, transaction } from "@/lib/server/platform/db";
import { env } from "@/lib/server/platform/env";
import { AppError } from "@/lib/server/platform/errors";
import { fileStore, moveToStore, type StoredFile } from "@/lib/server/platform/files";
import { log } from "@/lib/server/platform/log";
import { zipStream } from "@/lib/server/platform/zip";
import type { UploadDetails } from "@/lib/server/platform/uploads";
import { getVisibleCompetition, requireOrganizer, isOrganizer } from "./competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { safeFilename, servedMediaType } from "@/lib/validation/files";
import { isUuid } from "@/lib/validation/ids";
import type { AttachmentSummary } from "@/lib/responses";
import { Prisma } from "@/lib/generated/prisma/client";
import { CsvProfiler, filePreview, type FilePreview, profiling } from "@/lib/csv/profile";

/**
 * The data files of a competition: at most MAX_ATTACHMENTS files of at most
 * QUILTBOARD_DATA_FILE_BYTES each (50 GiB), QUILTBOARD_DATA_TOTAL_BYTES in all (200 GiB); 413
 * beyond, before the file is read where the count or the total already say so. Their bytes are in
 * the file store (platform/files.ts) under `attachments/<competition>/<uuid>`; the row keeps the
 * name, type, size, SHA-256 and that key.
 */
export const MAX_ATTACHMENTS = 20;

/** The largest data file and the most a competition's files take, as configured. */
export function attachmentLimits(): { fileBytes: number; totalBytes: number } {
  return { fileBytes: env().QUILTBOARD_DATA_FILE_BYTES, totalBytes: env().QUILTBOARD_DATA_TOTAL_BYTES };
}

const SUMMARY = { id: true, filename: true, contentType: true, size: true, sha256: true, createdAt: true } as const;

const summary = (a: { id: string; filename: string; contentType: string; size: bigint | number; sha256: string; createdAt: Date }): AttachmentSummary => ({
  ...a,
  size: Number(a.size),
  createdAt: a.createdAt.toISOString(),
});

export const GiB = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(bytes % 1024 ** 3 ? 2 : 0)} GiB`;

/**
 * What the competition's files take now, other than the one called `filename` (which an upload of
 * that name replaces), counting the resumable uploads in progress (each as the file it declared)
 * other than `uploadId`: one statement, for Prisma or a node-postgres transaction.
 */
export function storedBesides(competitionId: string, filename: string | null, uploadId: string | null = null): Prisma.Sql {
  return Prisma.sql`SELECT (a.count + u.count)::int AS count, (a.bytes + u.bytes)::float8 AS bytes
    FROM (SELECT count(*) AS count, coalesce(sum(size), 0) AS bytes FROM attachments
            WHERE competition_id = ${competitionId}::uuid AND filename IS DISTINCT FROM ${filename}) a,
         (SELECT count(*) AS count, coalesce(sum(size), 0) AS bytes FROM attachment_uploads
            WHERE competition_id = ${competitionId}::uuid AND id IS DISTINCT FROM ${uploadId}::uuid AND expires_at > now()) u`;
}

export type Stored = { count: number; bytes: number };

export function refuseOverStorage(stored: Stored, adding: number): void {
  if (stored.count + 1 > MAX_ATTACHMENTS) throw new AppError("payload_too_large", `a competition has at most ${MAX_ATTACHMENTS} data files; delete one first`);
  const { totalBytes } = attachmentLimits();
  if (stored.bytes + adding > totalBytes) {
    throw new AppError("payload_too_large", `a competition's data files take at most ${GiB(totalBytes)} in all; ${GiB(stored.bytes)} are taken`);
  }
}

/** Removes `key` from the store after the row that named it is gone; a failure is logged (the object is an orphan, harmless). */
export async function forget(key: string | null): Promise<void> {
  if (!key) return;
  await fileStore()
    .delete(key)
    .catch((error: unknown) => log.warn({ key, err: (error as Error).message }, "a replaced or deleted data file stayed in the file store"));
}

/**
 * POST …/attachments (organizers): attaches a public data file (replacing one of the same name).
 * The caller is checked, and the competition's file count, before the file is read; the file then
 * streams into the store under a new key (nothing of it is held in memory) and only once it is
 * there whole is its row written (recordAttachment). On its way the file is profiled
 * (lib/csv/profile.ts): the preview the Data tab shows is computed in that one pass and listed with
 * it. A refused or failed upload leaves nothing in the store.
 */
export async function addAttachment(user: PublicUser, slug: string, body: ReadableStream<Uint8Array> | null, details: () => Promise<UploadDetails>): Promise<AttachmentSummary> {
  const competition = await requireOrganizer(user, slug);
  if (!body) throw new AppError("unprocessable_entity", 'send the file as multipart/form-data in the field "file"');
  refuseOverStorage((await db.$queryRaw<Stored[]>(storedBesides(competition.id, null)))[0], 0);
  const key = attachmentKey(competition.id);
  const profiler = new CsvProfiler();
  const written = await fileStore().put(key, body.pipeThrough(profiling(profiler)));
  let file: StoredUpload;
  try {
    const { fileBytes } = attachmentLimits();
    if (written.size > fileBytes) throw new AppError("payload_too_large", `the attachment is larger than ${GiB(fileBytes)}`);
    const { name, contentType } = await details();
    const filename = safeFilename(name ?? "");
    if (!filename) throw new AppError("unprocessable_entity", "the file needs a name");
    const type = servedMediaType(contentType);
    file = { filename, contentType: type, key, ...written, preview: filePreview(profiler, { filename, contentType: type }) };
  } catch (error) {
    await forget(key);
    throw error;
  }
  return recordAttachment(competition.id, file);
}

/** A new key for a data file of the competition in the file store. */
export const attachmentKey = (competitionId: string) => `attachments/${competitionId}/${randomUUID()}`;

/** A data file whole in the store, with what was computed of it on the way (its SHA-256, its preview): what recordAttachment lists. */
export type StoredUpload = { filename: string; contentType: string; key: string; size: number; sha256: string; preview: FilePreview };

/**
 * The one step that lists a data file, once its bytes are whole in the store at `file.key` (whether
 * they came in one POST or as a resumable upload's parts): its row is written under a lock on the
 * competition's files that checks the total with its size, so concurrent uploads cannot pass it
 * together (through node-postgres: Prisma's interactive transaction gave up after 5 s under load),
 * replacing a file of the same name. A resumable upload's file names the upload it completes
 * (`uploadId`): its reservation is not counted again, and its row goes in the same transaction, so
 * it is either an upload in progress or a listed file, never both or neither. A refused file's bytes are removed from the store; a replaced file's
 * bytes after the new row is committed.
 */
export async function recordAttachment(competitionId: string, file: StoredUpload & { uploadId?: string }): Promise<AttachmentSummary> {
  let replaced: string | null = null;
  try {
    const stored = await transaction(async (tx) => {
      void tx.read(nameLock(`attachments:${competitionId}`));
      refuseOverStorage((await tx.read<Stored>(storedBesides(competitionId, file.filename, file.uploadId)))[0], file.size);
      const [previous] = await tx.read<{ key: string | null }>(
        Prisma.sql`SELECT storage_key AS key FROM attachments WHERE competition_id = ${competitionId}::uuid AND filename = ${file.filename}`,
      );
      replaced = previous?.key ?? null;
      if (file.uploadId) {
        const gone = await tx.read(Prisma.sql`DELETE FROM attachment_uploads WHERE id = ${file.uploadId}::uuid RETURNING id`);
        if (!gone.length) throw new AppError("not_found", "no such upload (it was abandoned, or expired)");
      }
      const [row] = await tx.read<{ id: string; filename: string; contentType: string; size: number; sha256: string; createdAt: Date }>(Prisma.sql`
        INSERT INTO attachments (id, competition_id, filename, content_type, size, sha256, storage_key, data, preview, created_at)
        VALUES (${randomUUID()}::uuid, ${competitionId}::uuid, ${file.filename}, ${file.contentType}, ${file.size}, ${file.sha256}, ${file.key}, NULL, ${JSON.stringify(file.preview)}::jsonb, now() AT TIME ZONE 'UTC')
        ON CONFLICT (competition_id, filename) DO UPDATE SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, sha256 = EXCLUDED.sha256, storage_key = EXCLUDED.storage_key, data = NULL, preview = EXCLUDED.preview
        RETURNING id, filename, content_type AS "contentType", size::float8 AS size, sha256, created_at AT TIME ZONE 'UTC' AS "createdAt"`);
      return row;
    });
    await forget(replaced);
    return summary(stored);
  } catch (error) {
    await forget(file.key);
    throw error;
  }
}

export async function listAttachments(competitionId: string): Promise<AttachmentSummary[]> {
  return (await db.attachment.findMany({ where: { competitionId }, orderBy: { filename: "asc" }, select: SUMMARY })).map(summary);
}

/** The competition, when `viewer` may download its data: an organizer, or a team member who meets its access rules. */
export async function requireReader(viewer: PublicUser | null, slug: string) {
  const competition = await getVisibleCompetition(viewer, slug);
  if (await isOrganizer(viewer, competition.id)) return competition;
  if (!viewer) throw new AppError("unauthorized", "sign in and join a team (accepting the rules) to download the data");
  const member = await db.teamMember.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: viewer.id } }, select: { teamId: true } });
  if (!member) throw new AppError("forbidden", "accept the rules (create or join a team) to download the data");
  await requireAccess(viewer, competition);
  return competition;
}

/**
 * GET …/attachments/all: every data file of the competition, for the same readers as one file, as
 * one zip streamed as it is read (platform/zip.ts), with its exact size; 404 when there is none.
 */
export async function zipAttachments(viewer: PublicUser | null, slug: string): Promise<{ stream: ReadableStream<Uint8Array>; size: number }> {
  const competition = await requireReader(viewer, slug);
  const files = await db.attachment.findMany({
    where: { competitionId: competition.id },
    orderBy: { filename: "asc" },
    select: { filename: true, size: true, createdAt: true, storageKey: true },
  });
  if (!files.length) throw new AppError("not_found", "this competition has no data files");
  if (files.some((f) => !f.storageKey)) throw new AppError("unavailable", "the files are being moved into the file store; try again in a minute", { retryAfter: 60 });
  return zipStream(files.map((f) => ({ name: f.filename, size: Number(f.size), mtime: f.createdAt, open: () => fileStore().get(f.storageKey!) })));
}

/**
 * A file for download, for its organizers and for competitors who accepted the rules (are in a
 * team) and meet the competition's access rules.
 */
export async function getAttachment(viewer: PublicUser | null, slug: string, id: string): Promise<StoredFile> {
  const competition = await requireReader(viewer, slug);
  if (!isUuid(id)) throw new AppError("not_found", "no such file");
  const file = await db.attachment.findFirst({
    where: { id, competitionId: competition.id },
    select: { filename: true, contentType: true, size: true, sha256: true, storageKey: true },
  });
  if (!file) throw new AppError("not_found", "no such file");
  const key = file.storageKey;
  if (!key) throw new AppError("unavailable", "the file is being moved into the file store; try again in a minute", { retryAfter: 60 });
  const { filename, sha256 } = file;
  const contentType = servedMediaType(file.contentType); // kept before the type was checked at upload
  return {
    filename,
    contentType,
    sha256,
    size: Number(file.size),
    open: (range) => fileStore().get(key, range),
    localFile: () => fileStore().localFile(key),
    signedUrl: (seconds) => fileStore().signedUrl(key, { filename, contentType, seconds }),
  };
}

export async function deleteAttachment(user: PublicUser, slug: string, id: string): Promise<void> {
  const competition = await requireOrganizer(user, slug);
  if (!isUuid(id)) throw new AppError("not_found", "no such file");
  const deleted = await db.attachment.findFirst({ where: { id, competitionId: competition.id }, select: { storageKey: true } });
  const { count } = await db.attachment.deleteMany({ where: { id, competitionId: competition.id } });
  if (count === 0) throw new AppError("not_found", "no such file");
  await forget(deleted?.storageKey ?? null);
}

/**
 * At a start: moves the data files stored in the database before the file store existed (bytes in
 * `data`, no `storage_key`) into the store under `attachments/<competition>/<id>` (platform/files.ts
 * moveToStore: idempotent, safe to interrupt), and returns how many it moved.
 */
export async function moveAttachmentsToStore(): Promise<number> {
  return moveToStore({ table: "attachments", id: "id", bytes: "data", key: "storage_key", keyOf: `'attachments/' || competition_id || '/' || id` });
}
