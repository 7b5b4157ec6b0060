// DELETE /api/v1/competitions/[slug]/bans/[userId] – lift a ban (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { liftBan } from "@/lib/server/competitions/access";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";

type Context = { params: Promise<{ slug: string; userId: string }> };

export const DELETE = handleApi(async (request, { params }: Context) => {
  const { slug, userId } = await params;
  await liftBan(await requireOrganizer(await requireApiUser(request), slug), userId);
  return json({ deleted: true });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
