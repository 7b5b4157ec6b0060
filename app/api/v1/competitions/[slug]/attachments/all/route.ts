// GET /api/v1/competitions/[slug]/attachments/all – every data file as one zip, streamed as it is written
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { zipAttachments } from "@/lib/server/competitions/attachments";
import { otherMethods } from "@/lib/server/platform/api";
import { fileResponse } from "../../../../file-response";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/attachments/all",
    tag: "Competitions",
    summary: "Download every data file as one zip (stored entries, ZIP64 past 4 GiB; streamed, with Content-Length)",
    who: "team members meeting the access rules, organizers",
    auth: "optional",
    ok: { 200: { description: "the zip, named <slug>-data.zip", reply: { file: "a zip of the data files, each stored as it was uploaded", mediaType: "application/zip" } } },
    errors: [401, 403],
  },
  async ({ user, params }) => fileResponse(await zipAttachments(user, params.slug), { filename: `${params.slug}-data.zip`, contentType: "application/zip", cache: "private" }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
