// POST /api/v1/competitions/[slug]/teams/merge – ask the team with {inviteCode} to merge into the caller's (a request its members accept or decline)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requestMerge } from "@/lib/server/teams/merges";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await requestMerge(user, (await params).slug, await readJson(request)), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
