// POST /api/v1/competitions/[slug]/teams – create a team, accepting the rules
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { createTeam } from "@/lib/server/teams/teams";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await createTeam(user, (await params).slug, await readJson(request)), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
