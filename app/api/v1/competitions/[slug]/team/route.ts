// GET /api/v1/competitions/[slug]/team – the caller's team: members, invite code, budget
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { AppError } from "@/lib/server/platform/errors";
import { getMyTeam } from "@/lib/server/teams/teams";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const team = await getMyTeam(await requireApiUser(request), (await params).slug);
  if (!team) throw new AppError("not_found", "you are not in a team in this competition");
  return json(team);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
