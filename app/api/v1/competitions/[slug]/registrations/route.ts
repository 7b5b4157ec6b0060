// POST /api/v1/competitions/[slug]/registrations – ask to take part (competitions with approval)
// GET /api/v1/competitions/[slug]/registrations – organizers: every request; others: their own
import { z } from "zod";
import { registrationSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { listRegistrations, myRegistration, requestRegistration } from "@/lib/server/competitions/access";
import { asOrganizer, getVisibleCompetition } from "@/lib/server/competitions/competitions";
import { json, otherMethods } from "@/lib/server/platform/api";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/registrations",
    tag: "Competitions",
    summary: "Ask to take part (competitions that admit by approval)",
    who: "signed in",
    auth: "required",
    ok: {
      201: { description: "asked", reply: z.object({ status: z.string() }) },
      200: { description: "asked before: the request's status", reply: z.object({ status: z.string() }) },
    },
    errors: [403, 409],
  },
  async ({ user, params }) => {
    const competition = await getVisibleCompetition(user, params.slug);
    const { status, created } = await requestRegistration(user, competition);
    return json({ status }, created ? 201 : 200);
  },
);

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/registrations",
    tag: "Competitions",
    summary: "Organizers: every request to take part; others: their own",
    who: "signed in",
    auth: "required",
    ok: {
      200: {
        description: "the requests, or the caller's status",
        reply: z.object({ registrations: z.array(registrationSchema) }),
        alternatives: [z.object({ status: z.string().nullable() })],
      },
    },
  },
  async ({ user, params }) => {
    const competition = await getVisibleCompetition(user, params.slug);
    const organized = await asOrganizer(user, competition);
    if (organized) return json({ registrations: await listRegistrations(organized) });
    return json({ status: await myRegistration(user, competition.id) });
  },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST, GET });
