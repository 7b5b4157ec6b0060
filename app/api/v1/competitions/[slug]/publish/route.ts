// GET /api/v1/competitions/[slug]/publish – what publishing needs, item by item (organizers, drafts)
// POST /api/v1/competitions/[slug]/publish – lock the solution and mechanism, open to competitors ({acknowledge: [codes]} as GET listed)
import { competitionDetailsSchema, publishChecklistSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { toPublicDetails } from "@/lib/server/competitions/competitions";
import { getPublishChecklist, publishCompetition } from "@/lib/server/competitions/publish";
import { json, otherMethods } from "@/lib/server/platform/api";
import { publishRequestSchema } from "@/lib/validation/competitions";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/publish",
    tag: "Competitions",
    summary:
      "What publishing needs, item by item (deadline, solution, correlation, mechanism), each with what is there or what to do, and what the organizer must acknowledge (no guarantee, a model that ignores declared groups or states)",
    who: "organizers, drafts",
    auth: "required",
    ok: { 200: { description: "the checklist", reply: publishChecklistSchema } },
    errors: [403, 409],
  },
  async ({ user, params }) => json(await getPublishChecklist(user, params.slug)),
);

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/publish",
    tag: "Competitions",
    summary:
      "Publish: fixes σ, T, B₀ and m; a 409 names every unfinished item of the checklist (its details), or, code acknowledgment_required, the acknowledgments GET …/publish lists that the body's `acknowledge` lacks (their codes in details)",
    who: "organizers",
    auth: "required",
    body: publishRequestSchema,
    ok: { 200: { description: "the competition", reply: competitionDetailsSchema } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(toPublicDetails(await publishCompetition(user, params.slug, body))),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
