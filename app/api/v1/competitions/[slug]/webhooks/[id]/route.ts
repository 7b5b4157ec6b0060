// DELETE /api/v1/competitions/[slug]/webhooks/[id] – remove a webhook; its queued events are given up (organizers)
import { doneSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { deleteWebhook } from "@/lib/server/competitions/webhooks";
import { json, otherMethods } from "@/lib/server/platform/api";

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/webhooks/{id}",
    tag: "Competitions",
    summary: "Delete a webhook; its events still queued are given up",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "deleted", reply: doneSchema("deleted") } },
    errors: [403],
  },
  async ({ user, params }) => json(await deleteWebhook(await requireOrganizer(user, params.slug), params.id)),
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
