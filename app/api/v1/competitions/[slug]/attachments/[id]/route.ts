// GET /api/v1/competitions/[slug]/attachments/[id] – download a public data file (from the file store: Range, ETag, a redirect to S3)
// DELETE /api/v1/competitions/[slug]/attachments/[id] – remove it (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { findApiUser, requireApiUser } from "@/lib/server/accounts/auth";
import { deleteAttachment, getAttachment } from "@/lib/server/competitions/attachments";
import { storedFileResponse } from "../../../../file-response";

type Context = { params: Promise<{ slug: string; id: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  return storedFileResponse(request, await getAttachment(await findApiUser(request), slug, id), "private");
});

export const DELETE = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  await deleteAttachment(await requireApiUser(request), slug, id);
  return json({ deleted: true });
});

export const { POST, PUT, PATCH, OPTIONS } = otherMethods({ GET, DELETE });
