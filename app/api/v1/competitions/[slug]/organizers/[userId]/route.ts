// DELETE /api/v1/competitions/[slug]/organizers/[userId] – remove a co-organizer (the creator; never the creator)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { removeOrganizer } from "@/lib/server/competitions/organizers";

export const DELETE = handleApi(async (request, { params }: { params: Promise<{ slug: string; userId: string }> }) => {
  const { slug, userId } = await params;
  const user = await requireApiUser(request);
  await removeOrganizer(user, await requireOrganizer(user, slug), userId);
  return json({ deleted: true });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
