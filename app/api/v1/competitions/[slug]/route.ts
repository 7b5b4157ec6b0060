// GET /api/v1/competitions/[slug] – public details (drafts: organizers only)
// PATCH /api/v1/competitions/[slug] – change settings (organizers; after publishing the live ones);
//   ?preview=true answers what the change would do (changes, recomputed plan) and stores nothing
// DELETE /api/v1/competitions/[slug] – delete a draft with its solution and data files (organizers; 409 once published)
import { z } from "zod";
import { competitionDetailsSchema, doneSchema, guaranteeSummarySchema, settingsPreviewSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { getVisibleCompetition, toPublicDetails } from "@/lib/server/competitions/competitions";
import { deleteDraft } from "@/lib/server/competitions/lifecycle";
import { getGuaranteeSummary } from "@/lib/server/competitions/plans";
import { previewCompetitionUpdate, updateCompetition } from "@/lib/server/competitions/settings";
import { json, otherMethods } from "@/lib/server/platform/api";
import { updateCompetitionSchema } from "@/lib/validation/competitions";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}",
    tag: "Competitions",
    summary: "A competition's public details, with what its scores are worth",
    who: "anyone",
    auth: "optional",
    ok: { 200: { description: "the competition", reply: competitionDetailsSchema.extend({ guarantee: guaranteeSummarySchema.nullable() }) } },
  },
  async ({ user, params }) => {
    const competition = await getVisibleCompetition(user, params.slug);
    return json({ ...toPublicDetails(competition), guarantee: await getGuaranteeSummary(competition) });
  },
);

export const PATCH = defineRoute(
  {
    method: "PATCH",
    path: "/api/v1/competitions/{slug}",
    tag: "Competitions",
    summary: "Change settings (after publishing, the live ones); ?preview=true answers what the change would do and stores nothing",
    who: "organizers",
    auth: "required",
    query: z.object({ preview: z.enum(["true"]).optional() }),
    body: updateCompetitionSchema,
    ok: { 200: { description: "the competition, or with preview what would change", reply: competitionDetailsSchema, alternatives: [settingsPreviewSchema] } },
    errors: [403, 409],
  },
  async ({ user, params, query, body }) => {
    if (query.preview === "true") return json(await previewCompetitionUpdate(user, params.slug, body));
    return json(toPublicDetails(await updateCompetition(user, params.slug, body)));
  },
);

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/competitions/{slug}",
    tag: "Competitions",
    summary: "Delete a draft with its solution and data files",
    who: "organizers, drafts",
    auth: "required",
    ok: { 200: { description: "deleted", reply: doneSchema("deleted") } },
    errors: [403, 409],
  },
  async ({ user, params }) => {
    await deleteDraft(user, params.slug);
    return json({ deleted: true });
  },
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
