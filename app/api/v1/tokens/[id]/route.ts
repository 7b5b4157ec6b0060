// DELETE /api/v1/tokens/[id] – revoke one of the caller's API tokens
import { doneSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { revokeToken } from "@/lib/server/accounts/tokens";
import { json, otherMethods } from "@/lib/server/platform/api";

export const DELETE = defineRoute(
  {
    method: "DELETE",
    path: "/api/v1/tokens/{id}",
    tag: "Accounts",
    summary: "Revoke one of the caller's API tokens; a revoked token gets 401",
    who: "signed in",
    auth: "required",
    ok: { 200: { description: "revoked", reply: doneSchema("deleted") } },
  },
  async ({ user, params }) => {
    await revokeToken(user.id, params.id);
    return json({ deleted: true });
  },
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
