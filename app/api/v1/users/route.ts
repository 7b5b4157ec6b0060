// POST /api/v1/users – sign up
import { userSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { registerUser } from "@/lib/server/accounts/users";
import { json, otherMethods } from "@/lib/server/platform/api";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { signUpSchema } from "@/lib/validation/accounts";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/users",
    tag: "Accounts",
    summary: "Sign up; a verification mail goes to the address (403 where password sign-up is off)",
    who: "anyone",
    auth: "none",
    body: signUpSchema,
    ok: { 201: { description: "the account", reply: userSchema } },
    errors: [403, 409, 429],
  },
  async ({ request, body }) => json(await registerUser(body, clientAddress(request)), 201),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
