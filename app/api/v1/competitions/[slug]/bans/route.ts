// GET /api/v1/competitions/[slug]/bans – the users banned from the competition (organizers)
// POST /api/v1/competitions/[slug]/bans – ban a user {email, reason} (organizers)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { banUser, listBans } from "@/lib/server/competitions/access";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const competition = await requireOrganizer(await requireApiUser(request), (await params).slug);
  return json({ bans: await listBans(competition) });
});

export const POST = handleApi(async (request, { params }: Context) => {
  const competition = await requireOrganizer(await requireApiUser(request), (await params).slug);
  return json(await banUser(competition, await readJson(request)), 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
