// POST /api/v1/competitions/[slug]/close – close a published competition (organizers)
import { competitionDetailsSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { closeCompetition } from "@/lib/server/closing/finals";
import { toPublicDetails } from "@/lib/server/competitions/competitions";
import { json, otherMethods } from "@/lib/server/platform/api";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/close",
    tag: "Competitions",
    summary: "Close early; the final standings are computed and every member is mailed",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the competition", reply: competitionDetailsSchema } },
    errors: [403, 409],
  },
  async ({ user, params }) => json(toPublicDetails(await closeCompetition(user, params.slug))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
