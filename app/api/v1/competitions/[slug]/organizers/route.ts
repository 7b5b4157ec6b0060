// POST /api/v1/competitions/[slug]/organizers – add an existing account as co-organizer
import { handleApi, json, readJson } from "@/lib/server/api";
import { requireApiUser } from "@/lib/server/auth";
import { inviteOrganizer } from "@/lib/server/competitions";

export const POST = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const user = await requireApiUser(request);
  return json(await inviteOrganizer(user, (await params).slug, await readJson(request)), 201);
});
