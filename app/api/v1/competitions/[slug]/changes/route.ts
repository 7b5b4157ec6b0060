// GET /api/v1/competitions/[slug]/changes – every settings change: who, when, before → after (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { listChanges } from "@/lib/server/competitions/settings";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const competition = await requireOrganizer(await requireApiUser(request), (await params).slug);
  return json({ changes: await listChanges(competition) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
