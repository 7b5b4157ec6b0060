// GET /api/v1/competitions/[slug]/organizers – the organizers and pending invitations (organizers)
// POST /api/v1/competitions/[slug]/organizers – invite {email} to co-organize: a mailed link its account accepts
import { z } from "zod";
import { organizersSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { inviteOrganizer, listOrganizers } from "@/lib/server/competitions/organizers";
import { json, otherMethods } from "@/lib/server/platform/api";
import { inviteOrganizerSchema } from "@/lib/validation/competitions";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/organizers",
    tag: "Competitions",
    summary: "The organizers and the invitations not accepted yet",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "organizers and invitations", reply: organizersSchema } },
    errors: [403],
  },
  async ({ user, params }) => json(await listOrganizers(await requireOrganizer(user, params.slug), user)),
);

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/organizers",
    tag: "Competitions",
    summary: "Invite an address to co-organize (a mailed link its account accepts)",
    who: "organizers",
    auth: "required",
    body: inviteOrganizerSchema,
    ok: {
      202: {
        description: "invited (the same answer whether or not the address has an account)",
        reply: z.object({ email: z.string(), status: z.literal("invited"), expiresAt: z.iso.datetime() }),
      },
    },
    errors: [403, 409, 429],
  },
  async ({ user, params, body }) => json(await inviteOrganizer(user, params.slug, body), 202),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
