import "server-only";
import { randomUUID } from "node:crypto";
import { type Adding, attachmentKey, attachmentLimits, forget, bytesText, recordAttachment, refuseOverRoom, refuseWithoutRoom, roomTaken, type Taken } from "./attachments";
import { requireOrganizer } from "./competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { db, nameLock, transaction } from "@/lib/server/platform/db";
import { env } from "@/lib/server/platform/env";
import { AppError } from "@/lib/server/platform/errors";
import { fileParts, fileStore } from "@/lib/server/platform/files";
import { log } from "@/lib/server/platform/log";
import type { AttachmentSummary, AttachmentUploadState } from "@/lib/responses";
import { MAX_PARTS, PART_BYTES, safeFilename, servedMediaType, type StartUpload } from "@/lib/validation/files";
import { isUuid } from "@/lib/validation/ids";
import { Prisma } from "@/lib/generated/prisma/client";
import { CsvProfiler, filePreview } from "@/lib/csv/profile";

/**
 * Resumable uploads of data files (docs/api.md#resumable-uploads), one protocol over both stores:
 * the client declares the file (name, size, optionally its SHA-256), sends its parts one request
 * each (`PUT …/parts/{n}`, in any order, again after a failure), asks which parts arrived to resume,
 * and completes; the server joins the parts (platform/files.ts `fileParts`: one read and one write
 * of the file, on either store), computes the whole file's SHA-256 on the way and only then lists the file (recordAttachment, the one step every data file
 * passes). The caller, the competition's room (the file's count and size, reserved until the
 * upload ends), the account's and the server's (attachments.ts refuseOverRoom) and the per-file limit are checked before the first byte.
 *
 * What one account can hold: a part holds upload slots only while its bytes arrive at the upload
 * pace (platform/uploads.ts), like any upload; an upload in progress holds the disk of its parts,
 * counted against the competition's total and the account's from the start, at most MAX_OPEN per account, and only
 * for QUILTBOARD_RESUMABLE_HOURS after its last part: then the scheduler removes its parts from the
 * store and its row (sweepExpiredUploads), so an abandoned upload leaves nothing behind.
 */
const MAX_OPEN = 8;

/** How long a completion may take before the scheduler may take its upload for abandoned: reading a 5 TiB file at 100 MB/s. */
const COMPLETING_HOURS = 16;

type Row = {
  id: string;
  competitionId: string;
  userId: string;
  filename: string;
  contentType: string;
  size: bigint;
  partBytes: number;
  sha256: string | null;
  storageKey: string;
  completing: boolean;
  expiresAt: Date;
};

const partCount = (row: { size: bigint | number; partBytes: number }) => Math.ceil(Number(row.size) / row.partBytes);

/** The size part `number` must have: partBytes, but for the last; 422 for a number that is not a whole number (null), 404 for one out of range. */
function partSize(row: Row, number: number | null): number {
  const count = partCount(row);
  if (number === null) {
    const message = `the part number must be a whole number from 1 to ${count}`;
    throw new AppError("unprocessable_entity", `n: ${message}`, [{ path: "n", message }]);
  }
  if (!Number.isInteger(number) || number < 1 || number > count) throw new AppError("not_found", `this upload has parts 1 to ${count}; there is no part ${number}`);
  return number < count ? row.partBytes : Number(row.size) - row.partBytes * (count - 1);
}

/** The parts of a `size`-byte file: `asked` (or 8 MiB), grown to whole MiB until the file fits in MAX_PARTS. */
function choosePartBytes(size: number, asked: number | undefined): number {
  const least = Math.ceil(size / MAX_PARTS / 2 ** 20) * 2 ** 20;
  const bytes = Math.max(asked ?? PART_BYTES.default, least);
  if (bytes > PART_BYTES.most) throw new AppError("payload_too_large", `a file of ${bytesText(size)} needs parts larger than S3 allows (5 GiB)`);
  return bytes;
}

async function state(row: Row): Promise<AttachmentUploadState> {
  const parts = await db.attachmentUploadPart.findMany({ where: { uploadId: row.id }, orderBy: { number: "asc" }, select: { number: true, size: true } });
  return {
    id: row.id,
    filename: row.filename,
    size: Number(row.size),
    partBytes: row.partBytes,
    partCount: partCount(row),
    received: parts.map((p) => p.number),
    receivedBytes: parts.reduce((sum, p) => sum + p.size, 0),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The upload `id` of the competition, started by `user` (an organizer): 404 for anyone else's, as for one that is gone. */
async function requireUpload(user: PublicUser, slug: string, id: string): Promise<Row> {
  const competition = await requireOrganizer(user, slug);
  const row = isUuid(id) ? await db.attachmentUpload.findFirst({ where: { id, competitionId: competition.id, userId: user.id } }) : null;
  if (!row) throw new AppError("not_found", "no such upload (it was completed, abandoned, or expired)");
  return row;
}

/** POST …/attachments/uploads: opens a resumable upload of the file declared, once its caller and the competition's room allow it. */
export async function startAttachmentUpload(user: PublicUser, slug: string, input: StartUpload): Promise<AttachmentUploadState> {
  const competition = await requireOrganizer(user, slug);
  const filename = safeFilename(input.name);
  if (!filename) throw new AppError("unprocessable_entity", "the file needs a name");
  const { fileBytes } = attachmentLimits();
  if (input.size > fileBytes) throw new AppError("payload_too_large", `the attachment is larger than ${bytesText(fileBytes)}`);
  const partBytes = choosePartBytes(input.size, input.partBytes);
  const adding: Adding = { competitionId: competition.id, userId: user.id, filename, bytes: input.size, writes: 2 * input.size };
  const free = await fileStore().free();
  refuseOverRoom((await db.$queryRaw<Taken[]>(roomTaken(adding)))[0], adding, free);
  const key = attachmentKey(competition.id);
  const id = randomUUID();
  {
    await transaction(async (tx) => {
      void tx.read(nameLock(`attachments:${competition.id}`));
      void tx.read(nameLock(`storage:${user.id}`));
      refuseOverRoom((await tx.read<Taken>(roomTaken(adding)))[0], adding, free);
      const [{ open }] = await tx.read<{ open: number }>(Prisma.sql`SELECT count(*)::int AS open FROM attachment_uploads WHERE user_id = ${user.id}::uuid AND expires_at > now()`);
      if (open >= MAX_OPEN) {
        throw new AppError("rate_limited", `you have ${open} uploads in progress, the most one account may keep; complete or abandon one first`, { retryAfter: 60 });
      }
      tx.write(Prisma.sql`
        INSERT INTO attachment_uploads (id, competition_id, user_id, filename, content_type, size, part_bytes, sha256, storage_key, expires_at)
        VALUES (${id}::uuid, ${competition.id}::uuid, ${user.id}::uuid, ${filename}, ${servedMediaType(input.contentType)}, ${input.size}, ${partBytes},
                ${input.sha256 ?? null}, ${key}, now() + make_interval(hours => ${env().QUILTBOARD_RESUMABLE_HOURS}))`);
    });
  }
  return state(await db.attachmentUpload.findUniqueOrThrow({ where: { id } }));
}

/** GET …/attachments/uploads/{id}: which parts arrived (a client resumes by sending the others). */
export async function getAttachmentUpload(user: PublicUser, slug: string, id: string): Promise<AttachmentUploadState> {
  return state(await requireUpload(user, slug, id));
}

/**
 * PUT …/attachments/uploads/{id}/parts/{n}: writes part n (exactly its size: partBytes, the last
 * the rest) whole into the store, replacing one sent before; only then is it counted as received,
 * and the upload's expiry pushed back. The caller and the part's number are checked before its
 * first byte is read.
 */
export async function putAttachmentUploadPart(
  user: PublicUser,
  slug: string,
  id: string,
  part: number | null,
  body: ReadableStream<Uint8Array> | null,
): Promise<{ number: number; size: number }> {
  const row = await requireUpload(user, slug, id);
  const size = partSize(row, part);
  const number = part!;
  if (row.completing) throw new AppError("conflict", "this upload is being completed; it takes no more parts");
  if (!body) throw new AppError("unprocessable_entity", `send part ${number}'s ${size} bytes as the body (Content-Type: application/octet-stream)`);
  const store = fileStore();
  const key = fileParts.key(id, number);
  const sha256 = await fileParts.put(store, key, { size, body });
  // The part is taken under the upload's row lock, which a completion and a removal take first
  // (claim): either it is recorded before them, and they join or remove it, or they came first,
  // and this sending removes its own bytes. A part sent again replaces the key the row named.
  const taken = await transaction(async (tx) => {
    const [upload] = await tx.read<{ completing: boolean }>(Prisma.sql`SELECT completing FROM attachment_uploads WHERE id = ${id}::uuid FOR UPDATE`);
    if (!upload || upload.completing) return { upload: upload ? ("completing" as const) : ("gone" as const) };
    const [previous] = await tx.read<{ key: string }>(Prisma.sql`SELECT ${PART_KEY} AS key FROM attachment_upload_parts WHERE upload_id = ${id}::uuid AND number = ${number}`);
    tx.write(Prisma.sql`UPDATE attachment_uploads SET expires_at = now() + make_interval(hours => ${env().QUILTBOARD_RESUMABLE_HOURS}) WHERE id = ${id}::uuid`);
    tx.write(Prisma.sql`
      INSERT INTO attachment_upload_parts (upload_id, number, size, sha256, key) VALUES (${id}::uuid, ${number}, ${size}, ${sha256}, ${key})
      ON CONFLICT (upload_id, number) DO UPDATE SET size = EXCLUDED.size, sha256 = EXCLUDED.sha256, key = EXCLUDED.key`);
    return { upload: "open" as const, replaced: previous?.key ?? null };
  });
  if (taken.upload !== "open") {
    await fileParts.remove(store, [key]);
    throw taken.upload === "gone"
      ? new AppError("not_found", `this upload was completed or abandoned while part ${number} arrived; nothing of the part is kept`)
      : new AppError("conflict", `this upload is being completed or removed; part ${number} was not taken`);
  }
  if (taken.replaced) await fileParts.remove(store, [taken.replaced]);
  return { number, size };
}

/** A part's key in the store: the one recorded, or, for a part sent before keys were recorded, the key parts had then. */
const PART_KEY = Prisma.sql`coalesce(key, 'uploads/' || upload_id || '/' || number)`;

/** The keys of the parts an upload holds, by part number. */
async function partKeys(id: string): Promise<Map<number, string>> {
  const rows = await db.$queryRaw<{ number: number; key: string }[]>(Prisma.sql`SELECT number, ${PART_KEY} AS key FROM attachment_upload_parts WHERE upload_id = ${id}::uuid`);
  return new Map(rows.map((r) => [r.number, r.key]));
}

/** Marks the upload as being completed or removed (under its row lock): no part is taken after it; false when another request did first. */
async function claim(id: string): Promise<boolean> {
  return (
    (await db.$executeRaw`
    UPDATE attachment_uploads SET completing = true, expires_at = now() + make_interval(hours => ${COMPLETING_HOURS + env().QUILTBOARD_RESUMABLE_HOURS})
    WHERE id = ${id}::uuid AND NOT completing`) > 0
  );
}

/**
 * POST …/attachments/uploads/{id}/complete: once every part is in, joins them into the file (the
 * store reads them once to compute its SHA-256: platform/files.ts), checks the SHA-256 declared at
 * the start, and lists the file (recordAttachment) in the transaction that removes the upload. A
 * file whose SHA-256 differs is refused (422) and removed with the upload: nothing of it is listed.
 * 409 while parts are missing (it names them) or while another request completes it.
 */
export async function completeAttachmentUpload(user: PublicUser, slug: string, id: string): Promise<AttachmentSummary> {
  const row = await requireUpload(user, slug, id);
  if (!(await claim(id))) throw new AppError("conflict", "this upload is already being completed");
  const keys = await partKeys(id);
  const missing = Array.from({ length: partCount(row) }, (_, i) => i + 1).filter((n) => !keys.has(n));
  if (missing.length) {
    await db.$executeRaw`UPDATE attachment_uploads SET completing = false, expires_at = now() + make_interval(hours => ${env().QUILTBOARD_RESUMABLE_HOURS}) WHERE id = ${id}::uuid`;
    throw new AppError(
      "conflict",
      `parts ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ` (and ${missing.length - 10} more)` : ""} have not arrived; send them, then complete`,
    );
  }
  try {
    // The bounds as they stand now (the account's may have shrunk since the start: an address
    // changed and not yet verified again, files a co-organizer added): a refusal here keeps the parts,
    // and the upload may be completed once there is room. Only a race with the join is refused later.
    await refuseWithoutRoom({ competitionId: row.competitionId, userId: row.userId, filename: row.filename, uploadId: id, bytes: Number(row.size) });
  } catch (error) {
    await db.$executeRaw`UPDATE attachment_uploads SET completing = false WHERE id = ${id}::uuid`;
    throw error;
  }
  const ordered = [...keys.keys()].sort((a, b) => a - b).map((n) => keys.get(n)!);
  const store = fileStore();
  let written: { size: number; sha256: string };
  // The file is profiled as its parts are joined, as a file sent whole is on its way to the store (lib/csv/profile.ts).
  const profiler = new CsvProfiler();
  try {
    written = await fileParts.join(store, row.storageKey, { keys: ordered, seen: (chunk) => profiler.push(chunk) });
    if (written.size !== Number(row.size)) throw new Error(`the joined parts hold ${written.size} bytes, ${row.size} were declared`);
  } catch (error) {
    // The parts are still there: the client may complete again.
    await db.$executeRaw`UPDATE attachment_uploads SET completing = false WHERE id = ${id}::uuid`;
    throw error;
  }
  if (row.sha256 && written.sha256 !== row.sha256) {
    await discard(row);
    throw new AppError(
      "unprocessable_entity",
      `the file's SHA-256 is ${written.sha256}, not ${row.sha256} as declared: its parts are not the file; the upload is removed, start again`,
    );
  }
  // The parts go before the file is listed: should this instance die in between, the upload's row
  // (still there, completing) expires and the scheduler removes the joined file; no part outlives it.
  await fileParts.remove(store, ordered);
  try {
    const preview = filePreview(profiler, { filename: row.filename, contentType: row.contentType });
    return await recordAttachment(row.competitionId, row.userId, { filename: row.filename, contentType: row.contentType, key: row.storageKey, ...written, preview, uploadId: id });
  } catch (error) {
    // Refused as it was listed (the competition's room was taken meanwhile): its bytes are gone, and so goes the upload.
    await discard(row);
    throw error;
  }
}

/** DELETE …/attachments/uploads/{id}: abandons the upload; its parts leave the store at once. */
export async function abandonAttachmentUpload(user: PublicUser, slug: string, id: string): Promise<void> {
  const row = await requireUpload(user, slug, id);
  if (!(await claim(id))) throw new AppError("conflict", "this upload is being completed");
  await discard(row);
}

/**
 * Removes an upload's parts and any joined file from the store, then its row (so that a failure
 * leaves the row for the scheduler to try again). It is marked first, so that no part sent meanwhile
 * is taken (a part taken before is among those removed).
 */
async function discard(row: Row): Promise<void> {
  await db.$executeRaw`UPDATE attachment_uploads SET completing = true WHERE id = ${row.id}::uuid`;
  await fileParts.remove(fileStore(), [...(await partKeys(row.id)).values()]);
  await forget(row.storageKey);
  await db.attachmentUpload.deleteMany({ where: { id: row.id } });
}

/**
 * Every instance's scheduler: removes the uploads past their expiry (no part for
 * QUILTBOARD_RESUMABLE_HOURS, or a completion that died with its instance) with their parts. Each
 * is claimed by one instance (its expiry pushed an hour on), so a failure is tried again an hour
 * later; the number removed.
 */
export async function sweepExpiredUploads(): Promise<number> {
  const due = await db.$queryRaw<{ id: string }[]>`
    UPDATE attachment_uploads SET expires_at = now() + interval '1 hour'
    WHERE id IN (SELECT id FROM attachment_uploads WHERE expires_at <= now() ORDER BY expires_at LIMIT 100 FOR UPDATE SKIP LOCKED)
    RETURNING id::text`;
  let removed = 0;
  for (const { id } of due) {
    const row = await db.attachmentUpload.findUnique({ where: { id } });
    if (!row) continue;
    try {
      await discard(row);
      removed++;
    } catch (error) {
      log.warn({ upload: id, err: (error as Error).message }, "an expired upload's parts could not be removed; trying again in an hour");
    }
  }
  return removed;
}
