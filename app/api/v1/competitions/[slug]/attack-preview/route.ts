// POST /api/v1/competitions/[slug]/attack-preview – the boosting attack against a mechanism setting (organizers)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { previewAttack } from "@/lib/server/competitions/calibration";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await previewAttack(user, (await params).slug, await readJson(request)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
