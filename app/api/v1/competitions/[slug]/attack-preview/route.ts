// POST /api/v1/competitions/[slug]/attack-preview – the boosting attack against a mechanism setting (organizers)
import { attackPreviewSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { previewAttack } from "@/lib/server/competitions/calibration";
import { json, otherMethods } from "@/lib/server/platform/api";
import { mechanismSchema } from "@/lib/validation/calibration";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/attack-preview",
    tag: "Competitions",
    summary: "The boosting attack against mechanism settings, on synthetic labels of the holdout's size and correlation",
    who: "organizers",
    auth: "required",
    body: mechanismSchema,
    ok: { 200: { description: "the attack's reported accuracy on a plain and a protected board", reply: attackPreviewSchema } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await previewAttack(user, params.slug, body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
