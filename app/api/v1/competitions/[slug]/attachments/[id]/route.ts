// GET /api/v1/competitions/[slug]/attachments/[id] – download a public data file (streamed from the database)
// DELETE /api/v1/competitions/[slug]/attachments/[id] – remove it (organizers)
import { handleApi, json } from "@/lib/server/platform/api";
import { findApiUser, requireApiUser } from "@/lib/server/accounts/auth";
import { deleteAttachment, getAttachment } from "@/lib/server/competitions/attachments";

type Context = { params: Promise<{ slug: string; id: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  const file = await getAttachment(await findApiUser(request), slug, id);
  return new Response(file.body, {
    headers: {
      "content-type": file.contentType,
      // Next drops Content-Length; scripts/http-preload.mjs puts this in its place.
      "x-quiltboard-length": String(file.size),
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      "x-content-type-options": "nosniff",
      // no-transform: Next would otherwise gzip the stream, and the length would not hold.
      "cache-control": "private, no-transform",
    },
  });
});

export const DELETE = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  await deleteAttachment(await requireApiUser(request), slug, id);
  return json({ deleted: true });
});
