// POST /api/v1/competitions/[slug]/registrations – ask to take part (competitions with approval)
// GET /api/v1/competitions/[slug]/registrations – organizers: every request; others: their own
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { listRegistrations, myRegistration, requestRegistration } from "@/lib/server/competitions/access";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { asOrganizer, getVisibleCompetition } from "@/lib/server/competitions/competitions";

type Context = { params: Promise<{ slug: string }> };

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const competition = await getVisibleCompetition(user, (await params).slug);
  const { status, created } = await requestRegistration(user, competition);
  return json({ status }, created ? 201 : 200);
});

export const GET = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  const competition = await getVisibleCompetition(user, (await params).slug);
  const organized = await asOrganizer(user, competition);
  if (organized) return json({ registrations: await listRegistrations(organized) });
  return json({ status: await myRegistration(user, competition.id) });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST, GET });
