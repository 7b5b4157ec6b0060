// POST /api/v1/competitions/[slug]/organizers – add an existing account as co-organizer
import { handleApi, json, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { inviteOrganizer } from "@/lib/server/competitions/competitions";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await inviteOrganizer(user, (await params).slug, await readJson(request)), 201);
});
