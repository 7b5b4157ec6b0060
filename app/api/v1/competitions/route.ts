// GET /api/v1/competitions – list competitions (?status=open|upcoming|closed&q=words&mine=true&page=&pageSize=)
// POST /api/v1/competitions – create a draft competition (the caller becomes its organizer)
import { competitionDetailsSchema, competitionListSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { createCompetition, listCompetitions, toPublicDetails } from "@/lib/server/competitions/competitions";
import { json, otherMethods } from "@/lib/server/platform/api";
import { competitionListQuerySchema, createCompetitionSchema } from "@/lib/validation/competitions";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions",
    tag: "Competitions",
    summary: "Competitions (drafts: their organizers only), open first, then drafts, then closed, each by deadline; filtered by status, title words and mine, a page at a time",
    who: "anyone",
    auth: "optional",
    query: competitionListQuerySchema,
    ok: { 200: { description: "a page of the competitions that match, and how many match", reply: competitionListSchema } },
  },
  async ({ user, query }) => json(await listCompetitions(user, query)),
);

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions",
    tag: "Competitions",
    summary: "Create a draft; the caller organizes it",
    who: "signed in",
    auth: "required",
    body: createCompetitionSchema,
    ok: { 201: { description: "the draft", reply: competitionDetailsSchema } },
    errors: [403, 409],
  },
  async ({ user, body }) => json(toPublicDetails(await createCompetition(user, body)), 201),
);

export const dynamic = "force-dynamic";
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
