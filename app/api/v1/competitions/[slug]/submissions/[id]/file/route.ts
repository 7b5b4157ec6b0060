// GET /api/v1/competitions/[slug]/submissions/[id]/file – the uploaded file, byte for byte, streamed (team members, organizers)
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { otherMethods } from "@/lib/server/platform/api";
import { getSubmissionFile } from "@/lib/server/scoring/files";
import { fileResponse } from "../../../../../file-response";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/submissions/{id}/file",
    tag: "Teams and submissions",
    summary: "The uploaded file, byte for byte (streamed, with its original Content-Length)",
    who: "the team's members, organizers",
    auth: "required",
    ok: { 200: { description: "the file", reply: { csv: "the file as it was uploaded" } } },
  },
  async ({ user, params }) => {
    const { filename, size, body } = await getSubmissionFile(user, params.slug, params.id);
    return fileResponse({ stream: body, size }, { filename, contentType: "text/csv; charset=utf-8", cache: "private, no-store" });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
