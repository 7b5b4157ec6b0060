// POST /api/v1/competitions/[slug]/attachments/uploads – start a resumable upload of a data file (organizers)
import { attachmentUploadSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { startAttachmentUpload } from "@/lib/server/competitions/attachment-uploads";
import { json, otherMethods } from "@/lib/server/platform/api";
import { startUploadSchema } from "@/lib/validation/files";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/attachments/uploads",
    tag: "Competitions",
    summary: "Start a resumable upload of a data file: its name, size and (optionally) SHA-256; the part size to send",
    who: "organizers",
    auth: "required",
    body: startUploadSchema,
    ok: { 201: { description: "the upload: its id, part size and count, and its expiry", reply: attachmentUploadSchema } },
    errors: [403, 413, 429, 507],
  },
  async ({ user, params, body }) => json(await startAttachmentUpload(user, params.slug, body), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
