import "server-only";
import { requireReader } from "./attachments";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import type { PublicUser } from "@/lib/server/accounts/users";
import { isUuid } from "@/lib/validation/ids";
import { filePreviewSchema, type AttachmentPreview } from "@/lib/responses";
import type { FilePreview } from "@/lib/csv/profile";

/**
 * The previews of data files (the Data tab, GET …/attachments/{id}/preview): each file with what its
 * upload computed of it (lib/csv/profile.ts), kept in its row. A preview shows the file's rows, so it
 * is for those who may download the file (attachments.ts requireReader). A file uploaded before
 * previews existed (or moved from the database, `data`) has none: its preview is null, and the tab
 * says so; nothing is computed when a page is viewed.
 */
const PREVIEW = { id: true, filename: true, contentType: true, size: true, sha256: true, createdAt: true, preview: true } as const;

type Row = { id: string; filename: string; contentType: string; size: bigint; sha256: string; createdAt: Date; preview: unknown };

function view(row: Row): AttachmentPreview {
  // The stored JSON is what FilePreview wrote; the schema checks it once more on its way out.
  const preview: FilePreview | null = row.preview === null ? null : filePreviewSchema.parse(row.preview);
  return { ...row, size: Number(row.size), createdAt: row.createdAt.toISOString(), preview };
}

/** GET …/attachments/{id}/preview: one file with its preview, for its readers. */
export async function getAttachmentPreview(viewer: PublicUser | null, slug: string, id: string): Promise<AttachmentPreview> {
  const competition = await requireReader(viewer, slug);
  if (!isUuid(id)) throw new AppError("not_found", "no such file");
  const row = await db.attachment.findFirst({ where: { id, competitionId: competition.id }, select: PREVIEW });
  if (!row) throw new AppError("not_found", "no such file");
  return view(row);
}

/** Every file of the competition with its preview when `viewer` may download them; null when not (the tab then lists the files only). */
export async function readablePreviews(viewer: PublicUser | null, slug: string): Promise<AttachmentPreview[] | null> {
  const competition = await requireReader(viewer, slug).catch((error: unknown) => {
    // Not signed in, or refused (not a member, or a member an access rule turns away: unverified,
    // awaiting approval, another domain, no identity at the required provider): the files, no previews.
    if (error instanceof AppError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  });
  if (!competition) return null;
  return (await db.attachment.findMany({ where: { competitionId: competition.id }, orderBy: { filename: "asc" }, select: PREVIEW })).map(view);
}
