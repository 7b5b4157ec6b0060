// POST /api/v1/competitions/[slug]/teams/merge-requests/[id]/cancel – a member of the team that asked withdraws the request
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { cancelMerge } from "@/lib/server/teams/merges";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string; id: string }> }) => {
  const { slug, id } = await params;
  return json(await cancelMerge(await requireApiUser(request), slug, id));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
