// POST /api/v1/competitions/[slug]/teams/merge-requests/[id]/accept – a member of the team asked accepts: it merges into the team that asked
import { teamViewSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { acceptMerge } from "@/lib/server/teams/merges";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/merge-requests/{id}/accept",
    tag: "Teams and submissions",
    summary: "Accept a merge request: the caller's team merges into the team that asked",
    who: "members of the team asked",
    auth: "required",
    ok: { 200: { description: "the merged team", reply: teamViewSchema } },
    errors: [403, 409],
  },
  async ({ user, params }) => json(await acceptMerge(user, params.slug, params.id)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
