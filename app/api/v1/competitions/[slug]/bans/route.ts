// GET /api/v1/competitions/[slug]/bans – the users banned from the competition (organizers)
// POST /api/v1/competitions/[slug]/bans – ban a user {email, reason} (organizers)
import { z } from "zod";
import { banSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { banUser, listBans } from "@/lib/server/competitions/access";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { json, otherMethods } from "@/lib/server/platform/api";
import { banSchema as banRequestSchema } from "@/lib/validation/competitions";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/bans",
    tag: "Teams and submissions",
    summary: "The users banned from the competition",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the bans", reply: z.object({ bans: z.array(banSchema) }) } },
    errors: [403],
  },
  async ({ user, params }) => json({ bans: await listBans(await requireOrganizer(user, params.slug)) }),
);

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/bans",
    tag: "Teams and submissions",
    summary: "Ban a user who takes part from the competition",
    who: "organizers",
    auth: "required",
    body: banRequestSchema,
    ok: { 201: { description: "the ban", reply: banSchema } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await banUser(await requireOrganizer(user, params.slug), body), 201),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
