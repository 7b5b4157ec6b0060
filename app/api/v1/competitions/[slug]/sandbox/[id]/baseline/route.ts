// PUT /api/v1/competitions/[slug]/sandbox/[id]/baseline – show the test as a leaderboard baseline {name} (organizers)
// DELETE – hide it
import { sandboxTestSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { setBaseline } from "@/lib/server/scoring/sandbox";
import { baselineSchema } from "@/lib/validation/competitions";

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/sandbox/{id}/baseline",
    tag: "Teams and submissions",
    summary: "Show a sandbox test on the leaderboard as an unranked baseline with its public score",
    who: "organizers",
    auth: "required",
    body: baselineSchema,
    ok: { 200: { description: "the test", reply: sandboxTestSchema } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await setBaseline(user, params.slug, params.id, body)),
);

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}/sandbox/{id}/baseline",
    tag: "Teams and submissions",
    summary: "Hide a baseline",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the test", reply: sandboxTestSchema } },
    errors: [403],
  },
  async ({ user, params }) => json(await setBaseline(user, params.slug, params.id, null)),
);

export const { GET, POST, PATCH, OPTIONS } = otherMethods({ PUT, DELETE });
