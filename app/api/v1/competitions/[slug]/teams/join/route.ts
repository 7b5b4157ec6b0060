// POST /api/v1/competitions/[slug]/teams/join – join a team with its invite code
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { joinTeam } from "@/lib/server/teams/teams";
import { inviteCodeSchema } from "@/lib/validation/teams";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/join",
    tag: "Teams and submissions",
    summary: "Join a team with its invite code",
    who: "signed in, meeting the access rules",
    auth: "required",
    body: inviteCodeSchema,
    ok: { 200: { description: "the team", reply: z.object({ id: z.uuid(), name: z.string() }) } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await joinTeam(user, params.slug, body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
