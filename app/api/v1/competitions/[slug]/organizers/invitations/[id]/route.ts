// DELETE /api/v1/competitions/[slug]/organizers/invitations/[id] – withdraw a pending invitation (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { withdrawInvitation } from "@/lib/server/competitions/organizers";

export const DELETE = handleApi(async (request, { params }: { params: Promise<{ slug: string; id: string }> }) => {
  const { slug, id } = await params;
  await withdrawInvitation(await requireOrganizer(await requireApiUser(request), slug), id);
  return json({ deleted: true });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
