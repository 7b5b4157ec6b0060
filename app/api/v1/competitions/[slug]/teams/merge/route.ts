// POST /api/v1/competitions/[slug]/teams/merge – ask the team with {inviteCode} to merge into the caller's (a request its members accept or decline)
import { z } from "zod";
import { mergeRequestSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { requestMerge } from "@/lib/server/teams/merges";
import { inviteCodeSchema } from "@/lib/validation/teams";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/merge",
    tag: "Teams and submissions",
    summary: "Ask the team with the invite code to merge into the caller's",
    who: "team members",
    auth: "required",
    body: inviteCodeSchema,
    ok: { 201: { description: "the request, pending", reply: mergeRequestSchema.extend({ status: z.literal("pending") }) } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await requestMerge(user, params.slug, body), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
