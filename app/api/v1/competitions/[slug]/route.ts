// GET /api/v1/competitions/[slug] – public details (drafts: organizers only)
// PATCH /api/v1/competitions/[slug] – change a draft's settings (organizers)
import { handleApi, json, readJson } from "@/lib/server/api";
import { findApiUser, requireApiUser } from "@/lib/server/auth";
import { getVisibleCompetition, toPublicDetails, updateCompetition } from "@/lib/server/competitions";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const viewer = await findApiUser(request);
  const { competition } = await getVisibleCompetition(viewer, (await params).slug);
  return json(toPublicDetails(competition));
});

export const PATCH = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  return json(toPublicDetails(await updateCompetition(user, (await params).slug, await readJson(request))));
});
