// GET /api/v1/competitions/[slug]/webhooks – the competition's webhooks with their recent deliveries (organizers; never a secret)
// POST /api/v1/competitions/[slug]/webhooks – add one ({url, events?}); the answer holds its signing secret, shown this once (organizers)
import { z } from "zod";
import { webhookCreatedSchema, webhookViewSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { createWebhook, listWebhooks } from "@/lib/server/competitions/webhooks";
import { json, otherMethods } from "@/lib/server/platform/api";
import { webhookSchema } from "@/lib/validation/competitions";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/webhooks",
    tag: "Competitions",
    summary: "The competition's webhooks, each with its last 20 deliveries (never a secret)",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the webhooks", reply: z.object({ webhooks: z.array(webhookViewSchema) }) } },
    errors: [403],
  },
  async ({ user, params }) => json({ webhooks: await listWebhooks(await requireOrganizer(user, params.slug)) }),
);

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/webhooks",
    tag: "Competitions",
    summary: "Add a webhook: its events are POSTed to the URL, signed as Standard Webhooks; the answer holds the signing secret, shown this once",
    who: "organizers",
    auth: "required",
    body: webhookSchema,
    ok: { 201: { description: "the webhook with its secret (whsec_…)", reply: webhookCreatedSchema } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await createWebhook(user, await requireOrganizer(user, params.slug), body), 201),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
