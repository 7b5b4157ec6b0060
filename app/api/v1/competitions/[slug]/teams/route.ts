// POST /api/v1/competitions/[slug]/teams – create a team, accepting the rules
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { createTeam } from "@/lib/server/teams/teams";
import { createTeamSchema } from "@/lib/validation/teams";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams",
    tag: "Teams and submissions",
    summary: "Create a team, accepting the rules",
    who: "signed in, meeting the access rules",
    auth: "required",
    body: createTeamSchema,
    ok: { 201: { description: "the team", reply: z.object({ id: z.uuid(), name: z.string(), inviteCode: z.string() }) } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await createTeam(user, params.slug, body), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
