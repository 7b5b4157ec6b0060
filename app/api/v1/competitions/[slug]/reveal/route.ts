// GET /api/v1/competitions/[slug]/reveal – the solution, the secret and the transcript, once revealed (404 before)
// POST /api/v1/competitions/[slug]/reveal – reveal them (organizers, once closed)
import { competitionDetailsSchema, revealSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { getReveal, revealCompetition } from "@/lib/server/closing/reveal";
import { toPublicDetails } from "@/lib/server/competitions/competitions";
import { json, otherMethods } from "@/lib/server/platform/api";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/reveal",
    tag: "Reveal",
    summary:
      "What a verifier needs: the commitment, the secret and the settings it hashes, the mechanism's parameters, and where the solution and the transcript are (404 before the reveal)",
    who: "anyone, once revealed",
    auth: "optional",
    ok: { 200: { description: "the reveal", reply: revealSchema } },
  },
  async ({ user, params }) => json(await getReveal(user, params.slug)),
);

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/reveal",
    tag: "Reveal",
    summary: "Reveal the solution as uploaded, the mechanism's secret and every answer (once closed; the default is to keep them private)",
    who: "organizers, once closed",
    auth: "required",
    ok: { 200: { description: "the competition, with revealedAt", reply: competitionDetailsSchema } },
    errors: [403, 409],
  },
  async ({ user, params }) => json(toPublicDetails(await revealCompetition(user, params.slug))),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
