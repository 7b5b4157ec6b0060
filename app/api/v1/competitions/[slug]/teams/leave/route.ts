// POST /api/v1/competitions/[slug]/teams/leave – leave one's team (before its first submission)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { leaveTeam } from "@/lib/server/teams/teams";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  await leaveTeam(await requireApiUser(request), (await params).slug);
  return json({ left: true });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
