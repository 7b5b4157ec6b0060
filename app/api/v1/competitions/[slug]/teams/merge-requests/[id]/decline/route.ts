// POST /api/v1/competitions/[slug]/teams/merge-requests/[id]/decline – a member of the team asked refuses the merge
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { declineMerge } from "@/lib/server/teams/merges";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/merge-requests/{id}/decline",
    tag: "Teams and submissions",
    summary: "Decline a merge request",
    who: "members of the team asked",
    auth: "required",
    ok: { 200: { description: "declined", reply: z.object({ id: z.uuid(), status: z.literal("declined") }) } },
    errors: [403, 409],
  },
  async ({ user, params }) => json(await declineMerge(user, params.slug, params.id)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
