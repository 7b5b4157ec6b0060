// DELETE /api/v1/competitions/[slug]/organizers/[userId] – remove a co-organizer, never the last (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { removeOrganizer } from "@/lib/server/competitions/organizers";

export const DELETE = handleApi(async (request, { params }: { params: Promise<{ slug: string; userId: string }> }) => {
  const { slug, userId } = await params;
  await removeOrganizer(await requireOrganizer(await requireApiUser(request), slug), userId);
  return json({ deleted: true });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
