// PUT /api/v1/competitions/[slug]/mechanism – guarantee or practical mode (organizers)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { setMechanism } from "@/lib/server/competitions/calibration";

export const PUT = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await setMechanism(user, (await params).slug, await readJson(request)));
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
