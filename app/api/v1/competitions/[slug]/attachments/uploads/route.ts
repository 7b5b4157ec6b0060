// POST /api/v1/competitions/[slug]/attachments/uploads – start a resumable upload of a data file (organizers)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { startAttachmentUpload } from "@/lib/server/competitions/attachment-uploads";
import { startUploadSchema } from "@/lib/validation/files";

type Context = { params: Promise<{ slug: string }> };

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const input = startUploadSchema.parse(await readJson(request));
  return json(await startAttachmentUpload(user, (await params).slug, input), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
