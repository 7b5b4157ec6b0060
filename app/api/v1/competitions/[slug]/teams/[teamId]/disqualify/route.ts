// POST /api/v1/competitions/[slug]/teams/[teamId]/disqualify – {reason} (organizers): off the live and final boards
// DELETE – reinstates the team
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { setDisqualified } from "@/lib/server/teams/teams";

type Context = { params: Promise<{ slug: string; teamId: string }> };

export const POST = handleApi(async (request, { params }: Context) => {
  const { slug, teamId } = await params;
  return json(await setDisqualified(await requireApiUser(request), slug, teamId, await readJson(request)));
});

export const DELETE = handleApi(async (request, { params }: Context) => {
  const { slug, teamId } = await params;
  return json(await setDisqualified(await requireApiUser(request), slug, teamId, null));
});

export const { GET, PUT, PATCH, OPTIONS } = otherMethods({ POST, DELETE });
