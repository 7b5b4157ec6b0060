// GET /api/v1/competitions/[slug]/organizers – the organizers and pending invitations (organizers)
// POST /api/v1/competitions/[slug]/organizers – invite {email} to co-organize: a mailed link its account accepts
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { inviteOrganizer, listOrganizers } from "@/lib/server/competitions/organizers";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  return json(await listOrganizers(await requireOrganizer(user, (await params).slug), user));
});

export const POST = handleApi(async (request, { params }: Context) => {
  const user = await requireApiUser(request);
  return json(await inviteOrganizer(user, (await params).slug, await readJson(request)), 202);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
