// PUT /api/v1/competitions/[slug]/attachments/uploads/[id]/parts/[n] – send part n of a resumable upload (its bytes as the body)
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { putAttachmentUploadPart } from "@/lib/server/competitions/attachment-uploads";
import { json, otherMethods } from "@/lib/server/platform/api";
import { openBytes } from "@/lib/server/platform/uploads";
import { AppError } from "@/lib/server/platform/errors";
import { MAX_PARTS, PART_BYTES } from "@/lib/validation/files";

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
    if (!/^\d{1,5}$/.test(params.n)) {
      const message = `the part number must be a whole number from 1 to ${MAX_PARTS}, not "${params.n.slice(0, 40)}"`;
      throw new AppError("unprocessable_entity", `n: ${message}`, [{ path: "n", message }]);
    }
    // Nothing of the body is read until the service has checked the caller and the part (platform/uploads.ts).
    const body = openBytes(request, { maxBytes: PART_BYTES.most, what: "the part", userId: user.id });
    return json(await putAttachmentUploadPart(user, params.slug, params.id, Number(params.n), body));
  },
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
