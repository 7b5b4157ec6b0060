// GET /api/v1/competitions/[slug]/teams/[teamId] – a team's members and score history
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { findApiUser } from "@/lib/server/accounts/auth";
import { getTeamHistory } from "@/lib/server/boards/team-page";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string; teamId: string }> }) => {
  const { slug, teamId } = await params;
  return json(await getTeamHistory(await findApiUser(request), slug, teamId));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
