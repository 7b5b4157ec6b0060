// DELETE /api/v1/competitions/[slug]/organizers/[userId] – remove a co-organizer (the creator; never the creator)
import { doneSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { removeOrganizer } from "@/lib/server/competitions/organizers";
import { json, otherMethods } from "@/lib/server/platform/api";

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/organizers/{userId}",
    tag: "Competitions",
    summary: "Remove a co-organizer (never the last)",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "removed", reply: doneSchema("deleted") } },
    errors: [403, 409],
  },
  async ({ user, params }) => {
    await removeOrganizer(user, await requireOrganizer(user, params.slug), params.userId);
    return json({ deleted: true });
  },
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
