// PUT /api/v1/competitions/[slug]/attachments/uploads/[id]/parts/[n] – send part n of a resumable upload (its bytes as the body)
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { putAttachmentUploadPart } from "@/lib/server/competitions/attachment-uploads";
import { json, otherMethods } from "@/lib/server/platform/api";
import { openBytes } from "@/lib/server/platform/uploads";
import { PART_BYTES } from "@/lib/validation/files";

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/attachments/uploads/{id}/parts/{n}",
    tag: "Competitions",
    summary: "Send part n (from 1) of a resumable upload: exactly partBytes bytes (the last part the rest); again to replace it",
    who: "the organizer who started it",
    auth: "required",
    body: "bytes",
    ok: { 200: { description: "the part is in the store whole", reply: z.object({ number: z.int(), size: z.int() }) } },
    errors: [403, 408, 409, 413, 429],
  },
  async ({ request, user, params }) => {
    // Nothing of the body is read until the service has checked the caller and the part (platform/uploads.ts).
    const body = openBytes(request, { maxBytes: PART_BYTES.most, what: "the part", userId: user.id });
    // A part number that is not a whole number is null: the service names it (422) once the caller and the upload are checked.
    return json(await putAttachmentUploadPart(user, params.slug, params.id, /^\d{1,5}$/.test(params.n) ? Number(params.n) : null, body));
  },
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
