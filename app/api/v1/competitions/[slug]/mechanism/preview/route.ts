// POST /api/v1/competitions/[slug]/mechanism/preview – the planner's answer and plots, nothing stored
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { previewMechanism } from "@/lib/server/competitions/calibration";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await previewMechanism(user, (await params).slug, await readJson(request)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
