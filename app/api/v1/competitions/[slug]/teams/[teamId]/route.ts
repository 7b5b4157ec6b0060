// GET /api/v1/competitions/[slug]/teams/[teamId] – a team's members and score history
import { teamHistorySchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { getTeamHistory } from "@/lib/server/boards/team-page";
import { json, otherMethods } from "@/lib/server/platform/api";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/teams/{teamId}",
    tag: "Viewing",
    summary: "A team's members, its place on the board and its score history",
    who: "anyone",
    auth: "optional",
    ok: { 200: { description: "the team's page", reply: teamHistorySchema } },
  },
  async ({ user, params }) => json(await getTeamHistory(user, params.slug, params.teamId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
