// GET /api/v1/competitions/[slug]/publish – what publishing needs, item by item (organizers, drafts)
// POST /api/v1/competitions/[slug]/publish – lock the solution and mechanism, open to competitors ({acknowledge: [codes]} as GET listed)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { toPublicDetails } from "@/lib/server/competitions/competitions";
import { getPublishChecklist, publishCompetition } from "@/lib/server/competitions/publish";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => json(await getPublishChecklist(await requireApiUser(request), (await params).slug)));

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  return json(toPublicDetails(await publishCompetition(user, (await params).slug, await readJson(request))));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
