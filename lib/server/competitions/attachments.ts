import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { requireAccess } from "./access";
import { db, nameLock, streamSlices, transaction } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { readUpload, type UploadDetails } from "@/lib/server/platform/uploads";
import { getVisibleCompetition, requireOrganizer, isOrganizer } from "./competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { safeFilename } from "@/lib/validation/files";
import { isUuid } from "@/lib/validation/ids";
import type { AttachmentSummary } from "@/lib/responses";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The data files of a competition, and what they may take of the database: at most
 * MAX_ATTACHMENTS files of at most MAX_ATTACHMENT_BYTES each, MAX_ATTACHMENTS_TOTAL_BYTES in all
 * (413 beyond, before the file is read where the count or the total already say so).
 */
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;
export const MAX_ATTACHMENTS = 20;
export const MAX_ATTACHMENTS_TOTAL_BYTES = 200 * 1024 * 1024;

const SUMMARY = { id: true, filename: true, contentType: true, size: true, sha256: true, createdAt: true } as const;

const summary = (a: { id: string; filename: string; contentType: string; size: number; sha256: string; createdAt: Date }): AttachmentSummary => ({
  ...a,
  createdAt: a.createdAt.toISOString(),
});

const MiB = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

/** What the competition's files take now, other than the one called `filename` (which an upload of that name replaces): one statement, for Prisma or a node-postgres transaction. */
function storedBesides(competitionId: string, filename: string | null): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS count, coalesce(sum(size), 0)::float8 AS bytes FROM attachments
    WHERE competition_id = ${competitionId}::uuid AND filename IS DISTINCT FROM ${filename}`;
}

type Stored = { count: number; bytes: number };

function refuseOverStorage(stored: Stored, adding: number): void {
  if (stored.count + 1 > MAX_ATTACHMENTS) throw new AppError("payload_too_large", `a competition has at most ${MAX_ATTACHMENTS} data files; delete one first`);
  if (stored.bytes + adding > MAX_ATTACHMENTS_TOTAL_BYTES) {
    throw new AppError(
      "payload_too_large",
      `a competition's data files take at most ${MiB(MAX_ATTACHMENTS_TOTAL_BYTES)} in all; ${(stored.bytes / 1024 / 1024).toFixed(1)} MiB are taken`,
    );
  }
}

/**
 * POST …/attachments (organizers): attaches a public data file (replacing one of the same name).
 * The caller is checked, and the competition's file count, before the file is read; the total
 * size is checked again with the file's size under a lock on the competition's files, so
 * concurrent uploads cannot pass it together. The file is written through node-postgres, sent as it
 * is (Prisma's interactive transaction gave up after 5 s, a 500 for a 45 MB file under load).
 */
export async function addAttachment(user: PublicUser, slug: string, body: ReadableStream<Uint8Array> | null, details: () => Promise<UploadDetails>): Promise<AttachmentSummary> {
  const competition = await requireOrganizer(user, slug);
  if (!body) throw new AppError("unprocessable_entity", 'send the file as multipart/form-data in the field "file"');
  refuseOverStorage((await db.$queryRaw<Stored[]>(storedBesides(competition.id, null)))[0], 0);
  const bytes = await readUpload(body, MAX_ATTACHMENT_BYTES, "the attachment");
  const { name, contentType } = await details();
  const filename = safeFilename(name ?? "");
  if (!filename) throw new AppError("unprocessable_entity", "the file needs a name");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const stored = await transaction(async (tx) => {
    void tx.read(nameLock(`attachments:${competition.id}`));
    refuseOverStorage((await tx.read<Stored>(storedBesides(competition.id, filename)))[0], bytes.byteLength);
    const [row] = await tx.read<{ id: string; filename: string; contentType: string; size: number; sha256: string; createdAt: Date }>(Prisma.sql`
      INSERT INTO attachments (id, competition_id, filename, content_type, size, sha256, data, created_at)
      VALUES (${randomUUID()}::uuid, ${competition.id}::uuid, ${filename}, ${contentType || "application/octet-stream"}, ${bytes.byteLength}, ${sha256}, ${bytes}, now() AT TIME ZONE 'UTC')
      ON CONFLICT (competition_id, filename) DO UPDATE SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, sha256 = EXCLUDED.sha256, data = EXCLUDED.data
      RETURNING id, filename, content_type AS "contentType", size, sha256, created_at AT TIME ZONE 'UTC' AS "createdAt"`);
    return row;
  });
  return summary(stored);
}

export async function listAttachments(competitionId: string): Promise<AttachmentSummary[]> {
  return (await db.attachment.findMany({ where: { competitionId }, orderBy: { filename: "asc" }, select: SUMMARY })).map(summary);
}

/**
 * A file for download, for its organizers and for competitors who accepted the rules (are in a
 * team) and meet the competition's access rules: its name, type, size and its bytes as a stream
 * read from the database a slice at a time (platform/db.ts streamSlices).
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
  const file = await db.attachment.findFirst({ where: { id, competitionId: competition.id }, select: { filename: true, contentType: true, size: true } });
  if (!file) throw new AppError("not_found", "no such file");
  const body = streamSlices(file.size, async (offset, length) => {
    const [row] = await db.$queryRaw<{ slice: Uint8Array }[]>`SELECT substring(data FROM ${offset + 1}::int FOR ${length}::int) AS slice FROM attachments WHERE id = ${id}::uuid`;
    if (!row) throw new AppError("not_found", "the file was deleted during the download");
    return row.slice;
  });
  return { ...file, body };
}

export async function deleteAttachment(user: PublicUser, slug: string, id: string): Promise<void> {
  const competition = await requireOrganizer(user, slug);
  if (!isUuid(id)) throw new AppError("not_found", "no such file");
  const { count } = await db.attachment.deleteMany({ where: { id, competitionId: competition.id } });
  if (count === 0) throw new AppError("not_found", "no such file");
}
