// PUT /api/v1/competitions/[slug]/mechanism – guarantee or practical mode (organizers)
import { planSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { setMechanism } from "@/lib/server/competitions/calibration";
import { json, otherMethods } from "@/lib/server/platform/api";
import { mechanismSchema } from "@/lib/validation/calibration";

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/mechanism",
    tag: "Competitions",
    summary: "Set the mechanism (guarantee or practical mode); a plan whose budget is 0 is refused",
    who: "organizers, drafts",
    auth: "required",
    body: mechanismSchema,
    ok: { 200: { description: "the plan", reply: planSchema } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await setMechanism(user, params.slug, body)),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
