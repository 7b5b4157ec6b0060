// POST /api/v1/competitions/[slug]/mechanism/preview – the planner's answer and plots, nothing stored
import { mechanismPreviewSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { previewMechanism } from "@/lib/server/competitions/calibration";
import { json, otherMethods } from "@/lib/server/platform/api";
import { mechanismSchema } from "@/lib/validation/calibration";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/mechanism/preview",
    tag: "Competitions",
    summary: "The plan and the panel's plots for mechanism settings, nothing stored",
    who: "organizers",
    auth: "required",
    body: mechanismSchema,
    ok: { 200: { description: "the plan and the plots", reply: mechanismPreviewSchema } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await previewMechanism(user, params.slug, body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
