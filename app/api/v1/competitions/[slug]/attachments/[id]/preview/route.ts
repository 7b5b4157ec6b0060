// GET /api/v1/competitions/[slug]/attachments/[id]/preview – a data file's preview: a CSV file's first rows and column summaries, computed at upload
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { findApiUser } from "@/lib/server/accounts/auth";
import { getAttachmentPreview } from "@/lib/server/competitions/previews";

type Context = { params: Promise<{ slug: string; id: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  return json(await getAttachmentPreview(await findApiUser(request), slug, id));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
