// GET /api/v1/me – the caller's account, with emailVerified
import { meSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { getMe } from "@/lib/server/accounts/users";
import { json, otherMethods } from "@/lib/server/platform/api";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/me",
    tag: "Accounts",
    summary: "The caller's account",
    who: "signed in",
    auth: "required",
    ok: { 200: { description: "the account", reply: meSchema } },
  },
  async ({ user }) => json(await getMe(user)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
