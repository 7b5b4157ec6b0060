// POST /api/v1/competitions/[slug]/attachments/uploads/[id]/complete – join the parts, check the SHA-256 and list the file
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { completeAttachmentUpload } from "@/lib/server/competitions/attachment-uploads";

type Context = { params: Promise<{ slug: string; id: string }> };

export const POST = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  return json(await completeAttachmentUpload(await requireApiUser(request), slug, id), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
