// POST /api/v1/competitions/[slug]/webhooks/[id]/test – send that webhook a webhook.test event (organizers)
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { sendTestEvent } from "@/lib/server/competitions/webhooks";
import { json, otherMethods } from "@/lib/server/platform/api";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/webhooks/{id}/test",
    tag: "Competitions",
    summary: "Send the webhook a webhook.test event, through the outbox like any other",
    who: "organizers",
    auth: "required",
    ok: { 202: { description: "queued (and sent, unless the receiver did not take it: then retried)", reply: z.object({ queued: z.literal(true), id: z.uuid() }) } },
    errors: [403],
  },
  async ({ user, params }) => json(await sendTestEvent(await requireOrganizer(user, params.slug), params.id), 202),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
