// GET /api/v1/competitions/[slug]/team – the caller's team: members, invite code, budget
import { teamViewSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { AppError } from "@/lib/server/platform/errors";
import { getMyTeam } from "@/lib/server/teams/teams";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/team",
    tag: "Teams and submissions",
    summary: "The caller's team: members, invite code, budget, limits, merge requests",
    who: "signed in",
    auth: "required",
    ok: { 200: { description: "the team", reply: teamViewSchema } },
  },
  async ({ user, params }) => {
    const team = await getMyTeam(user, params.slug);
    if (!team) throw new AppError("not_found", "you are not in a team in this competition");
    return json(team);
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
