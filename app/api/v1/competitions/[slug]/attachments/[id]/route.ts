// GET /api/v1/competitions/[slug]/attachments/[id] – download a public data file (from the file store: Range, ETag, a redirect to S3)
// DELETE /api/v1/competitions/[slug]/attachments/[id] – remove it (organizers)
import { doneSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { deleteAttachment, getAttachment } from "@/lib/server/competitions/attachments";
import { json, otherMethods } from "@/lib/server/platform/api";
import { storedFileResponse } from "../../../../file-response";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments/{id}",
    tag: "Competitions",
    summary: "Download a data file (streamed, with Content-Length; Range, If-Range and If-None-Match against its ETag, the SHA-256)",
    who: "team members meeting the access rules, organizers",
    auth: "optional",
    headers: {
      Range: "bytes=a-b, bytes=a- or bytes=-n: only those bytes (206)",
      "If-Range": "the ETag of the file the client has part of: the Range holds only while the file is the same",
      "If-None-Match": "the ETag of the copy the client has: 304 while it is current",
    },
    ok: {
      200: { description: "the file, with ETag and Accept-Ranges", reply: { file: "the file's bytes, with the type it was uploaded with", mediaType: "*/*" } },
      206: { description: "the bytes of the Range asked, with Content-Range", reply: { file: "exactly the bytes asked", mediaType: "*/*" } },
      302: { description: "with the S3 store: Location is a URL signed for 5 minutes that serves the file and its ranges", reply: { nothing: "no body" } },
      304: { description: "If-None-Match named the file's ETag: the client's copy is current", reply: { nothing: "no body" } },
    },
    errors: [401, 403, 416],
  },
  async ({ request, user, params }) => storedFileResponse(request, await getAttachment(user, params.slug, params.id), "private"),
);

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/attachments/{id}",
    tag: "Competitions",
    summary: "Remove a data file",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "removed", reply: doneSchema("deleted") } },
    errors: [403],
  },
  async ({ user, params }) => {
    await deleteAttachment(user, params.slug, params.id);
    return json({ deleted: true });
  },
);

export const { POST, PUT, PATCH, OPTIONS } = otherMethods({ GET, DELETE });
