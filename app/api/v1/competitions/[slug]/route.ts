// GET /api/v1/competitions/[slug] – public details (drafts: organizers only)
// PATCH /api/v1/competitions/[slug] – change settings (organizers; after publishing the live ones);
//   ?preview=true answers what the change would do (changes, recomputed plan) and stores nothing
// DELETE /api/v1/competitions/[slug] – delete a draft with its solution and data files (organizers; 409 once published)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { findApiUser, requireApiUser } from "@/lib/server/accounts/auth";
import { getVisibleCompetition, toPublicDetails } from "@/lib/server/competitions/competitions";
import { deleteDraft } from "@/lib/server/competitions/lifecycle";
import { getGuaranteeSummary } from "@/lib/server/competitions/plans";
import { previewCompetitionUpdate, updateCompetition } from "@/lib/server/competitions/settings";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const viewer = await findApiUser(request);
  const competition = await getVisibleCompetition(viewer, (await params).slug);
  return json({ ...toPublicDetails(competition), guarantee: await getGuaranteeSummary(competition) });
});

export const PATCH = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const { slug } = await params;
  const body = await readJson(request);
  if (new URL(request.url).searchParams.get("preview") === "true") return json(await previewCompetitionUpdate(user, slug, body));
  return json(toPublicDetails(await updateCompetition(user, slug, body)));
});

export const DELETE = handleApi(async (request, { params }: Context) => {
  await deleteDraft(await requireApiUser(request), (await params).slug);
  return json({ deleted: true });
});

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
