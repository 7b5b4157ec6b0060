// GET /api/v1/competitions/[slug]/attachments – list public data files
// POST /api/v1/competitions/[slug]/attachments – attach a file (multipart field "file"; organizers)
import { z } from "zod";
import { attachmentSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { addAttachment, attachmentLimits, listAttachments } from "@/lib/server/competitions/attachments";
import { getVisibleCompetition } from "@/lib/server/competitions/competitions";
import { json, otherMethods, requireMediaType } from "@/lib/server/platform/api";
import { openUpload } from "@/lib/server/platform/uploads";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments",
    tag: "Competitions",
    summary: "The competition's data files",
    who: "anyone who sees the competition",
    auth: "optional",
    ok: { 200: { description: "the files", reply: z.object({ attachments: z.array(attachmentSchema) }) } },
  },
  async ({ user, params }) => {
    const competition = await getVisibleCompetition(user, params.slug);
    return json({ attachments: await listAttachments(competition.id) });
  },
);

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/attachments",
    tag: "Competitions",
    summary: "Attach a data file (multipart field file)",
    who: "organizers",
    auth: "required",
    body: "multipart",
    ok: { 201: { description: "the file", reply: attachmentSchema } },
    errors: [403, 413, 429, 507],
  },
  async ({ request, user, params }) => {
    requireMediaType(request, ["multipart"]);
    // Nothing of the body is read until the service has checked the caller (platform/uploads.ts).
    const { file, details } = openUpload(request, { maxBytes: attachmentLimits().fileBytes, what: "the attachment", userId: user.id });
    // Its Content-Length (the file and a little of multipart's framing) is what the disk must hold; the bounds count the file once it is in the store.
    return json(await addAttachment(user, params.slug, file, details, Number(request.headers.get("content-length")) || 0), 201);
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
