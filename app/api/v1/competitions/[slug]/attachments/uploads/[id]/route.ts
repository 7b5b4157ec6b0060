// GET /api/v1/competitions/[slug]/attachments/uploads/[id] – which parts of a resumable upload arrived
// DELETE /api/v1/competitions/[slug]/attachments/uploads/[id] – abandon it (its parts are removed)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { abandonAttachmentUpload, getAttachmentUpload } from "@/lib/server/competitions/attachment-uploads";

type Context = { params: Promise<{ slug: string; id: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  return json(await getAttachmentUpload(await requireApiUser(request), slug, id));
});

export const DELETE = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  await abandonAttachmentUpload(await requireApiUser(request), slug, id);
  return json({ deleted: true });
});

export const { POST, PUT, PATCH, OPTIONS } = otherMethods({ GET, DELETE });
