// POST /api/v1/tokens – create a personal API token (HTTP Basic email:password, or the web session)
import { tokenCreatedSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { createToken } from "@/lib/server/accounts/tokens";
import { json, otherMethods } from "@/lib/server/platform/api";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { tokenNameSchema } from "@/lib/validation/accounts";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/tokens",
    tag: "Accounts",
    summary: "Create a personal API token (shown once, stored hashed)",
    who: "HTTP Basic email:password, or the web session (the account page)",
    auth: "basic",
    body: tokenNameSchema,
    ok: { 201: { description: "the token", reply: tokenCreatedSchema } },
    errors: [403, 429],
  },
  async ({ request, user, body }) => json(await createToken(user, body, clientAddress(request)), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
