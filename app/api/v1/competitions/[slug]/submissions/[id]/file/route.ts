// GET /api/v1/competitions/[slug]/submissions/[id]/file – the uploaded file, byte for byte, streamed (team members, organizers)
import { handleApi, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { getSubmissionFile } from "@/lib/server/scoring/files";
import { fileResponse } from "../../../../../file-response";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string; id: string }> }) => {
  const { slug, id } = await params;
  const { filename, size, body } = await getSubmissionFile(await requireApiUser(request), slug, id);
  return fileResponse({ stream: body, size }, { filename, contentType: "text/csv; charset=utf-8", cache: "private, no-store" });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
