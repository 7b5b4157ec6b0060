// PUT /api/v1/competitions/[slug]/submissions/[id]/final – select for the final standings (up to 2)
import { handleApi, json, readJson } from "@/lib/server/api";
import { requireApiUser } from "@/lib/server/auth";
import { selectFinal } from "@/lib/server/submissions";

export const PUT = handleApi(async (request, { params }: { params: Promise<{ slug: string; id: string }> }) => {
  const { slug, id } = await params;
  return json(await selectFinal(await requireApiUser(request), slug, id, await readJson(request)));
});
