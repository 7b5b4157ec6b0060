// POST /api/v1/competitions/[slug]/teams/join – join a team with its invite code
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { joinTeam } from "@/lib/server/teams/teams";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await joinTeam(user, (await params).slug, await readJson(request)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
