// GET /api/v1/competitions/[slug]/changes – every settings change: who, when, before → after (organizers)
import { handleApi, json } from "@/lib/server/api";
import { requireApiUser } from "@/lib/server/auth";
import { requireOrganizer } from "@/lib/server/competitions";
import { listChanges } from "@/lib/server/settings";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const competition = await requireOrganizer(await requireApiUser(request), (await params).slug);
  return json({ changes: await listChanges(competition.id) });
});
