// GET /api/v1/competitions/[slug]/health – privacy spent per team and in total (organizers)
import { healthReportSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { holdoutHealth } from "@/lib/server/scoring/audit";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/health",
    tag: "Competitions",
    summary: "Privacy spent per team and in total",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the holdout's health", reply: healthReportSchema } },
    errors: [403],
  },
  async ({ user, params }) => json(await holdoutHealth(user, params.slug)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
