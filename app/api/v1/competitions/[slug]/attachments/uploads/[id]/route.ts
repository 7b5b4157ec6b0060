// GET /api/v1/competitions/[slug]/attachments/uploads/[id] – which parts of a resumable upload arrived
// DELETE /api/v1/competitions/[slug]/attachments/uploads/[id] – abandon it (its parts are removed)
import { attachmentUploadSchema, doneSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { abandonAttachmentUpload, getAttachmentUpload } from "@/lib/server/competitions/attachment-uploads";
import { json, otherMethods } from "@/lib/server/platform/api";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments/uploads/{id}",
    tag: "Competitions",
    summary: "Which parts of a resumable upload arrived (to resume: send the others)",
    who: "the organizer who started it",
    auth: "required",
    ok: { 200: { description: "the upload", reply: attachmentUploadSchema } },
    errors: [403],
  },
  async ({ user, params }) => json(await getAttachmentUpload(user, params.slug, params.id)),
);

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/attachments/uploads/{id}",
    tag: "Competitions",
    summary: "Abandon a resumable upload: its parts are removed",
    who: "the organizer who started it",
    auth: "required",
    ok: { 200: { description: "removed", reply: doneSchema("deleted") } },
    errors: [403, 409],
  },
  async ({ user, params }) => {
    await abandonAttachmentUpload(user, params.slug, params.id);
    return json({ deleted: true });
  },
);

export const { POST, PUT, PATCH, OPTIONS } = otherMethods({ GET, DELETE });
