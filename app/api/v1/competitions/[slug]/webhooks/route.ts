// GET /api/v1/competitions/[slug]/webhooks – the competition's webhooks with their recent deliveries (organizers; never a secret)
// POST /api/v1/competitions/[slug]/webhooks – add one ({url, events?}); the answer holds its signing secret, shown this once (organizers)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { createWebhook, listWebhooks } from "@/lib/server/competitions/webhooks";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const competition = await requireOrganizer(await requireApiUser(request), (await params).slug);
  return json({ webhooks: await listWebhooks(competition) });
});

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const competition = await requireOrganizer(user, (await params).slug);
  return json(await createWebhook(user, competition, await readJson(request)), 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
