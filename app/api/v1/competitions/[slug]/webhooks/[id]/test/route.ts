// POST /api/v1/competitions/[slug]/webhooks/[id]/test – send that webhook a webhook.test event (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { sendTestEvent } from "@/lib/server/competitions/webhooks";

type Context = { params: Promise<{ slug: string; id: string }> };

export const POST = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  const competition = await requireOrganizer(await requireApiUser(request), slug);
  return json(await sendTestEvent(competition, id), 202);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
