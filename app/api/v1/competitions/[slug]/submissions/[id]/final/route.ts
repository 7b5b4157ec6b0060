// PUT /api/v1/competitions/[slug]/submissions/[id]/final – select for the final standings (up to 2)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { selectFinal } from "@/lib/server/scoring/team-submissions";

export const PUT = handleApi(async (request, { params }: { params: Promise<{ slug: string; id: string }> }) => {
  const { slug, id } = await params;
  return json(await selectFinal(await requireApiUser(request), slug, id, await readJson(request)));
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
