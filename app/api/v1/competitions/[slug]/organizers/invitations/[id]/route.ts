// DELETE /api/v1/competitions/[slug]/organizers/invitations/[id] – withdraw a pending invitation (organizers)
import { doneSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { withdrawInvitation } from "@/lib/server/competitions/organizers";
import { json, otherMethods } from "@/lib/server/platform/api";

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/organizers/invitations/{id}",
    tag: "Competitions",
    summary: "Withdraw an invitation",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "withdrawn", reply: doneSchema("deleted") } },
    errors: [403],
  },
  async ({ user, params }) => {
    await withdrawInvitation(await requireOrganizer(user, params.slug), params.id);
    return json({ deleted: true });
  },
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
