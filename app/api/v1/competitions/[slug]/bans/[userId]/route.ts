// DELETE /api/v1/competitions/[slug]/bans/[userId] – lift a ban (organizers)
import { handleApi, json } from "@/lib/server/api";
import { liftBan } from "@/lib/server/access";
import { requireApiUser } from "@/lib/server/auth";
import { requireOrganizer } from "@/lib/server/competitions";

type Context = { params: Promise<{ slug: string; userId: string }> };

export const DELETE = handleApi(async (request, { params }: Context) => {
  const { slug, userId } = await params;
  await liftBan(await requireOrganizer(await requireApiUser(request), slug), userId);
  return json({ deleted: true });
});
