// POST /api/v1/competitions/[slug]/publish – lock the solution and mechanism, open to competitors
import { handleApi, json } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { toPublicDetails } from "@/lib/server/competitions/competitions";
import { publishCompetition } from "@/lib/server/competitions/publish";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(toPublicDetails(await publishCompetition(user, (await params).slug)));
});
