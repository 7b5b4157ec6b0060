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

/** The largest data file, the most a competition's files and an account's take, and the disk kept free, as configured (see Adding). */
export function attachmentLimits() {
  const e = env();
  return {
    fileBytes: e.QUILTBOARD_DATA_FILE_BYTES,
    totalBytes: e.QUILTBOARD_DATA_TOTAL_BYTES,
    accountBytes: e.QUILTBOARD_ACCOUNT_DATA_BYTES,
    unverifiedBytes: e.QUILTBOARD_UNVERIFIED_DATA_BYTES,
    freeBytes: e.QUILTBOARD_FILES_FREE_BYTES,
  };
}

const SUMMARY = { id: true, filename: true, contentType: true, size: true, sha256: true, createdAt: true } as const;

const summary = (a: { id: string; filename: string; contentType: string; size: bigint | number; sha256: string; createdAt: Date }): AttachmentSummary => ({
  ...a,
  size: Number(a.size),
  createdAt: a.createdAt.toISOString(),
});

/** A size in words: in GiB from 1 GiB, else in MiB from 1 MiB (two decimals unless whole), else in bytes. */
export function bytesText(bytes: number): string {
  const [unit, name] = bytes >= 1024 ** 3 ? [1024 ** 3, "GiB"] : bytes >= 1024 ** 2 ? [1024 ** 2, "MiB"] : [1, "bytes"];
  return `${(bytes / unit).toFixed(bytes % unit ? 2 : 0)} ${name}`;
}

/**
 * The room data files may take (docs/operating.md §10, Disk): a data file, whole or as a resumable
 * upload, is refused before its first byte is read when it would pass any of
 * - the competition's: MAX_ATTACHMENTS files and QUILTBOARD_DATA_TOTAL_BYTES in all (413);
 * - the account's: QUILTBOARD_ACCOUNT_DATA_BYTES (QUILTBOARD_UNVERIFIED_DATA_BYTES until its address
 *   is verified) for the data files of every competition it organizes and the resumable uploads in
 *   progress it started or that go into them, each as the file it declared (413): five drafts of an
 *   unverified account cannot take more than its one bound together;
 * - the server's: on the local store, QUILTBOARD_FILES_FREE_BYTES left free on its file system after
 *   what the uploads in progress may still write (507); on S3 the bucket has no such bound.
 * Checked again with the file's size as it is listed (recordAttachment), where concurrent uploads
 * meet under the competition's and the account's locks. A file of the same name, which the new one
 * replaces, is not counted; nor is the upload the file completes.
 */
export type Adding = {
  competitionId: string;
  userId: string;
  /** the file's name, which a file of that name gives its room to; null before it is known (a POST's name comes with its body) */
  filename: string | null;
  /** the upload the file completes (its reservation is the file) */
  uploadId?: string | null;
  /** the file's size as the bounds count it: 0 where it is not known yet (a POST, counted once it is in the store) */
  bytes: number;
  /** what the store will write before the file is listed (a resumable upload: its parts, then the file joined beside them; a POST: its Content-Length) */
  writes?: number;
};

/** What `adding` finds taken: one statement, for Prisma or a node-postgres transaction. */
export function roomTaken(adding: Adding): Prisma.Sql {
  const { competitionId, userId, filename } = adding;
  const uploadId = adding.uploadId ?? null;
  return Prisma.sql`WITH organized AS (SELECT competition_id FROM competition_organizers WHERE user_id = ${userId}::uuid AND removed_at IS NULL),
      files AS (SELECT competition_id, size FROM attachments
                 WHERE competition_id IN (SELECT competition_id FROM organized UNION SELECT ${competitionId}::uuid)
                   AND NOT (competition_id = ${competitionId}::uuid AND filename IS NOT DISTINCT FROM ${filename})),
      uploads AS (SELECT competition_id, user_id, size FROM attachment_uploads
                   WHERE id IS DISTINCT FROM ${uploadId}::uuid AND expires_at > now()
                     AND (user_id = ${userId}::uuid OR competition_id IN (SELECT competition_id FROM organized UNION SELECT ${competitionId}::uuid)))
    SELECT
      ((SELECT count(*) FROM files WHERE competition_id = ${competitionId}::uuid) + (SELECT count(*) FROM uploads WHERE competition_id = ${competitionId}::uuid))::int AS count,
      ((SELECT coalesce(sum(size), 0) FROM files WHERE competition_id = ${competitionId}::uuid)
        + (SELECT coalesce(sum(size), 0) FROM uploads WHERE competition_id = ${competitionId}::uuid))::float8 AS bytes,
      ((SELECT coalesce(sum(size), 0) FROM files WHERE competition_id IN (SELECT competition_id FROM organized))
        + (SELECT coalesce(sum(size), 0) FROM uploads WHERE user_id = ${userId}::uuid OR competition_id IN (SELECT competition_id FROM organized)))::float8 AS "accountBytes",
      (SELECT email_verified_at IS NOT NULL FROM users WHERE id = ${userId}::uuid) AS verified,
      (SELECT coalesce(sum(2 * u.size - coalesce((SELECT sum(p.size) FROM attachment_upload_parts p WHERE p.upload_id = u.id), 0)), 0)
         FROM attachment_uploads u WHERE u.expires_at > now())::float8 AS pending`;
}

/** What roomTaken reads: the competition's files (count, bytes), the account's bytes and whether its address is verified, and what the uploads in progress may still write to the store (their parts, then the joined file beside them). */
export type Taken = { count: number; bytes: number; accountBytes: number; verified: boolean; pending: number };

/** Throws the refusal of the first bound `adding` would pass (see Adding); `free` is the store's free bytes, null on S3 or once the bytes are in the store. */
export function refuseOverRoom(taken: Taken, adding: Adding, free: number | null): void {
  if (taken.count + 1 > MAX_ATTACHMENTS) throw new AppError("payload_too_large", `a competition has at most ${MAX_ATTACHMENTS} data files; delete one first`);
  const { totalBytes, accountBytes, unverifiedBytes, freeBytes } = attachmentLimits();
  if (taken.bytes + adding.bytes > totalBytes) {
    throw new AppError("payload_too_large", `a competition's data files take at most ${bytesText(totalBytes)} in all; ${bytesText(taken.bytes)} are taken`);
  }
  const bound = taken.verified ? accountBytes : Math.min(unverifiedBytes, accountBytes);
  if (taken.accountBytes + adding.bytes > bound) {
    const held = `the data files of the competitions you organize and your uploads in progress take ${bytesText(taken.accountBytes)}`;
    const more = taken.verified
      ? "delete files or abandon uploads first"
      : `verify your address (the link we mailed you, or send it again from your account page) to hold up to ${bytesText(accountBytes)}`;
    throw new AppError(
      "payload_too_large",
      `one account may hold at most ${bytesText(bound)} of data files${taken.verified ? "" : " until its address is verified"}; ${held}, and this file is ${bytesText(adding.bytes)}: ${more}`,
    );
  }
  const writes = adding.writes ?? 0;
  if (free !== null && free - taken.pending - writes < freeBytes) {
    throw new AppError(
      "insufficient_storage",
      `the server keeps ${bytesText(freeBytes)} of its disk free; ${bytesText(free)} are free, uploads in progress may still write ${bytesText(taken.pending)}, and this file would write ${bytesText(writes)}: nothing was written; tell the operators`,
    );
  }
}

/** Refuses `adding` (see Adding) before its first byte: the room as it stands, the local store's free space included. */
export async function refuseWithoutRoom(adding: Adding): Promise<void> {
  const [[taken], free] = await Promise.all([db.$queryRaw<Taken[]>(roomTaken(adding)), fileStore().free()]);
  refuseOverRoom(taken, adding, free);
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
export async function addAttachment(
  user: PublicUser,
  slug: string,
  body: ReadableStream<Uint8Array> | null,
  details: () => Promise<UploadDetails>,
  declared = 0,
): Promise<AttachmentSummary> {
  const competition = await requireOrganizer(user, slug);
  if (!body) throw new AppError("unprocessable_entity", 'send the file as multipart/form-data in the field "file"');
  await refuseWithoutRoom({ competitionId: competition.id, userId: user.id, filename: null, bytes: 0, writes: declared });
  const key = attachmentKey(competition.id);
  const profiler = new CsvProfiler();
  const written = await fileStore().put(key, body.pipeThrough(profiling(profiler)));
  let file: StoredUpload;
  try {
    const { fileBytes } = attachmentLimits();
    if (written.size > fileBytes) throw new AppError("payload_too_large", `the attachment is larger than ${bytesText(fileBytes)}`);
    const { name, contentType } = await details();
    const filename = safeFilename(name ?? "");
    if (!filename) throw new AppError("unprocessable_entity", "the file needs a name");
    const type = servedMediaType(contentType);
    file = { filename, contentType: type, key, ...written, preview: filePreview(profiler, { filename, contentType: type }) };
  } catch (error) {
    await forget(key);
    throw error;
  }
  return recordAttachment(competition.id, user.id, file);
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
export async function recordAttachment(competitionId: string, userId: string, file: StoredUpload & { uploadId?: string }): Promise<AttachmentSummary> {
  let replaced: string | null = null;
  try {
    const stored = await transaction(async (tx) => {
      void tx.read(nameLock(`attachments:${competitionId}`));
      void tx.read(nameLock(`storage:${userId}`));
      const adding = { competitionId, userId, filename: file.filename, uploadId: file.uploadId, bytes: file.size };
      refuseOverRoom((await tx.read<Taken>(roomTaken(adding)))[0], adding, null);
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
