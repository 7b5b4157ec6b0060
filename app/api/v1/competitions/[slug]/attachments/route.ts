// GET /api/v1/competitions/[slug]/attachments – list public data files
// POST /api/v1/competitions/[slug]/attachments – attach a file (multipart field "file"; organizers)
import { handleApi, json } from "@/lib/server/api";
import { findApiUser, requireApiUser } from "@/lib/server/auth";
import { addAttachment, listAttachments, MAX_ATTACHMENT_BYTES } from "@/lib/server/attachments";
import { getVisibleCompetition } from "@/lib/server/competitions";
import { AppError } from "@/lib/server/errors";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const viewer = await findApiUser(request);
  const { competition } = await getVisibleCompetition(viewer, (await params).slug);
  return json({ attachments: await listAttachments(competition.id) });
});

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_ATTACHMENT_BYTES + 64 * 1024) {
    throw new AppError("payload_too_large", `attachments are limited to ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB`);
  }
  const form = await request.formData().catch(() => null);
  const file = form?.get("file");
  if (!(file instanceof File)) throw new AppError("unprocessable_entity", 'send the file as multipart/form-data in the field "file"');
  const bytes = new Uint8Array(await file.arrayBuffer());
  return json(await addAttachment(user, (await params).slug, { name: file.name, type: file.type, bytes }), 201);
});
