// DELETE /api/v1/competitions/[slug]/webhooks/[id] – remove a webhook; its queued events are given up (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { deleteWebhook } from "@/lib/server/competitions/webhooks";

type Context = { params: Promise<{ slug: string; id: string }> };

export const DELETE = handleApi(async (request, { params }: Context) => {
  const { slug, id } = await params;
  const competition = await requireOrganizer(await requireApiUser(request), slug);
  return json(await deleteWebhook(competition, id));
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
