// POST /api/v1/competitions/[slug]/teams/merge – merge the team with {inviteCode} into the caller's
import { handleApi, json, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { mergeTeams } from "@/lib/server/teams/teams";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await mergeTeams(user, (await params).slug, await readJson(request)));
});
