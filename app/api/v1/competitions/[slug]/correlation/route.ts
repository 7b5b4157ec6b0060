// PUT /api/v1/competitions/[slug]/correlation – set the holdout's correlation model (organizers)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { setCorrelation } from "@/lib/server/competitions/calibration";

export const PUT = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await setCorrelation(user, (await params).slug, await readJson(request)));
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
