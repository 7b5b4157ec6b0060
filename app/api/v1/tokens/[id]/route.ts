// DELETE /api/v1/tokens/[id] – revoke one of the caller's API tokens
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { revokeToken } from "@/lib/server/accounts/tokens";

type Context = { params: Promise<{ id: string }> };

export const DELETE = handleApi(async (request, { params }: Context) => {
  const { id } = await params;
  await revokeToken((await requireApiUser(request)).id, id);
  return json({ deleted: true });
});

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
