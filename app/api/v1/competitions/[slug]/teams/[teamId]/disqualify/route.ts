// POST /api/v1/competitions/[slug]/teams/[teamId]/disqualify – {reason} (organizers): off the live and final boards
// DELETE – reinstates the team
import { disqualificationSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { setDisqualified } from "@/lib/server/teams/teams";
import { disqualifySchema } from "@/lib/validation/teams";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/{teamId}/disqualify",
    tag: "Teams and submissions",
    summary: "Disqualify a team: off the live and final boards, no more submissions, no budget restored",
    who: "organizers",
    auth: "required",
    body: disqualifySchema,
    ok: { 200: { description: "the team", reply: disqualificationSchema } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await setDisqualified(user, params.slug, params.teamId, body)),
);

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/teams/{teamId}/disqualify",
    tag: "Teams and submissions",
    summary: "Reinstate a disqualified team",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the team", reply: disqualificationSchema } },
    errors: [403, 409],
  },
  async ({ user, params }) => json(await setDisqualified(user, params.slug, params.teamId, null)),
);

export const { GET, PUT, PATCH, OPTIONS } = otherMethods({ POST, DELETE });
