// PUT /api/v1/competitions/[slug]/correlation – set the holdout's correlation model (organizers)
import { correlationEchoSchema, correlationSummarySchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { setCorrelation } from "@/lib/server/competitions/calibration";
import { json, otherMethods } from "@/lib/server/platform/api";
import { correlationRequestSchema } from "@/lib/validation/calibration";

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/correlation",
    tag: "Competitions",
    summary: "Set the holdout's correlation model",
    who: "organizers, drafts",
    auth: "required",
    body: correlationRequestSchema,
    ok: {
      200: {
        description: "the model resolved against the solution (the model as given before there is one)",
        reply: correlationSummarySchema,
        alternatives: [correlationEchoSchema],
      },
    },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await setCorrelation(user, params.slug, body)),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
