// GET /api/v1/competitions/[slug]/audit – replay every answer from the stored secret (organizers)
import { auditReportSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { auditCompetition } from "@/lib/server/scoring/audit";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/audit",
    tag: "Competitions",
    summary: "Replay every answer from the stored secret",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "answers replayed and mismatches", reply: auditReportSchema } },
    errors: [403],
  },
  async ({ user, params }) => json(await auditCompetition(user, params.slug)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
