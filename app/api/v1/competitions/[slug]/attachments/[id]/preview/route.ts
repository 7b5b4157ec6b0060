// GET /api/v1/competitions/[slug]/attachments/[id]/preview – a data file's preview: a CSV file's first rows and column summaries, computed at upload
import { attachmentPreviewSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { getAttachmentPreview } from "@/lib/server/competitions/previews";
import { json, otherMethods } from "@/lib/server/platform/api";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments/{id}/preview",
    tag: "Competitions",
    summary: "A data file's preview: a CSV file's first 10 rows and per column its type, missing values, distinct count (exact up to 1,000) and range, computed once at upload",
    who: "team members meeting the access rules, organizers",
    auth: "optional",
    ok: {
      200: { description: "the file and its preview: kind csv, kind none with the reason, or null for a file uploaded before previews existed", reply: attachmentPreviewSchema },
    },
    errors: [401, 403],
  },
  async ({ user, params }) => json(await getAttachmentPreview(user, params.slug, params.id)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
