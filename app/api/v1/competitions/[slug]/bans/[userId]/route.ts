// DELETE /api/v1/competitions/[slug]/bans/[userId] – lift a ban (organizers)
import { doneSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { liftBan } from "@/lib/server/competitions/access";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { json, otherMethods } from "@/lib/server/platform/api";

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/bans/{userId}",
    tag: "Teams and submissions",
    summary: "Lift a ban",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "lifted", reply: doneSchema("deleted") } },
    errors: [403],
  },
  async ({ user, params }) => {
    await liftBan(await requireOrganizer(user, params.slug), params.userId);
    return json({ deleted: true });
  },
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
