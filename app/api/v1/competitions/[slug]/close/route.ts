// POST /api/v1/competitions/[slug]/close – close a published competition (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { toPublicDetails } from "@/lib/server/competitions/competitions";
import { closeCompetition } from "@/lib/server/boards/finals";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(toPublicDetails(await closeCompetition(user, (await params).slug)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
