// PUT /api/v1/competitions/[slug]/sandbox/[id]/baseline – show the test as a leaderboard baseline {name} (organizers)
// DELETE – hide it
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { setBaseline } from "@/lib/server/scoring/sandbox";

type Context = { params: Promise<{ slug: string; id: string }> };

export const PUT = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  return json(await setBaseline(await requireApiUser(request), slug, id, await readJson(request)));
});

export const DELETE = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  return json(await setBaseline(await requireApiUser(request), slug, id, null));
});

export const { GET, POST, PATCH, OPTIONS } = otherMethods({ PUT, DELETE });
