// PUT /api/v1/competitions/[slug]/attachments/uploads/[id]/parts/[n] – send part n of a resumable upload (its bytes as the body)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { openBytes } from "@/lib/server/platform/uploads";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { putAttachmentUploadPart } from "@/lib/server/competitions/attachment-uploads";
import { PART_BYTES } from "@/lib/validation/files";

type Context = { params: Promise<{ slug: string; id: string; n: string }> };

export const PUT = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const { slug, id, n } = await params;
  // Nothing of the body is read until the service has checked the caller and the part (platform/uploads.ts).
  const body = openBytes(request, { maxBytes: PART_BYTES.most, what: "the part", userId: user.id });
  return json(await putAttachmentUploadPart(user, slug, id, /^\d{1,5}$/.test(n) ? Number(n) : NaN, body));
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
