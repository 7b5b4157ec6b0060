// POST /api/v1/competitions/[slug]/teams/merge-requests/[id]/accept – a member of the team asked accepts: it merges into the team that asked
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { acceptMerge } from "@/lib/server/teams/merges";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string; id: string }> }) => {
  const { slug, id } = await params;
  return json(await acceptMerge(await requireApiUser(request), slug, id));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
