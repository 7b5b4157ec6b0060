// POST /api/v1/competitions/[slug]/teams/merge-requests/[id]/decline – a member of the team asked refuses the merge
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { declineMerge } from "@/lib/server/teams/merges";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string; id: string }> }) => {
  const { slug, id } = await params;
  return json(await declineMerge(await requireApiUser(request), slug, id));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
