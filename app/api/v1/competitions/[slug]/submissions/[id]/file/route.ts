// GET /api/v1/competitions/[slug]/submissions/[id]/file – the uploaded file, byte for byte, streamed (team members, organizers)
import { handleApi } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { getSubmissionFile } from "@/lib/server/scoring/files";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string; id: string }> }) => {
  const { slug, id } = await params;
  const { filename, size, body } = await getSubmissionFile(await requireApiUser(request), slug, id);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      // The original size: Next drops Content-Length, scripts/http-preload.mjs puts this in its place.
      "x-quiltboard-length": String(size),
      "content-disposition": `attachment; filename="${filename.replace(/[^\x20-\x7e]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(filename)}`,
      // no-transform: Next would otherwise gzip the stream again, and the length would not hold.
      "cache-control": "private, no-store, no-transform",
    },
  });
});
