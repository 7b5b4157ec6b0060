// POST /api/v1/competitions/[slug]/teams/merge-requests/[id]/cancel – a member of the team that asked withdraws the request
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { cancelMerge } from "@/lib/server/teams/merges";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/merge-requests/{id}/cancel",
    tag: "Teams and submissions",
    summary: "Cancel the caller's team's merge request",
    who: "members of the team that asked",
    auth: "required",
    ok: { 200: { description: "cancelled", reply: z.object({ id: z.uuid(), status: z.literal("cancelled") }) } },
    errors: [403, 409],
  },
  async ({ user, params }) => json(await cancelMerge(user, params.slug, params.id)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
