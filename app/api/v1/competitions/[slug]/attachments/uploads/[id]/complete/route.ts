// POST /api/v1/competitions/[slug]/attachments/uploads/[id]/complete – join the parts, check the SHA-256 and list the file
import { attachmentSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { completeAttachmentUpload } from "@/lib/server/competitions/attachment-uploads";
import { json, otherMethods } from "@/lib/server/platform/api";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/attachments/uploads/{id}/complete",
    tag: "Competitions",
    summary: "Complete a resumable upload: join its parts, compute the SHA-256 (checked against the one declared) and list the file",
    who: "the organizer who started it",
    auth: "required",
    ok: { 201: { description: "the file, listed", reply: attachmentSchema } },
    errors: [403, 409, 413],
  },
  async ({ user, params }) => json(await completeAttachmentUpload(user, params.slug, params.id), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
