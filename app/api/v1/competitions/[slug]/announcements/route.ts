// GET /api/v1/competitions/[slug]/announcements – the competition's announcements, newest first
// POST /api/v1/competitions/[slug]/announcements – post one, mailed to every participant (organizers)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { findApiUser, requireApiUser } from "@/lib/server/accounts/auth";
import { getVisibleCompetition, requireOrganizer } from "@/lib/server/competitions/competitions";
import { listAnnouncements, postAnnouncement } from "@/lib/server/competitions/announcements";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const competition = await getVisibleCompetition(await findApiUser(request), (await params).slug);
  return json({ announcements: await listAnnouncements(competition.id) });
});

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const competition = await requireOrganizer(user, (await params).slug);
  return json(await postAnnouncement(user, competition, await readJson(request)), 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
