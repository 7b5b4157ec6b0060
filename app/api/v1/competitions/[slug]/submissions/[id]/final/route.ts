// PUT /api/v1/competitions/[slug]/submissions/[id]/final – select for the final standings (up to 2)
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { selectFinal } from "@/lib/server/scoring/team-submissions";
import { finalSelectionSchema } from "@/lib/validation/teams";

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/submissions/{id}/final",
    tag: "Teams and submissions",
    summary: "Select a submission for the final standings (up to 2), or unselect it",
    who: "team members",
    auth: "required",
    body: finalSelectionSchema,
    ok: { 200: { description: "the selection", reply: z.object({ id: z.uuid(), selected: z.boolean() }) } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await selectFinal(user, params.slug, params.id, body)),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
