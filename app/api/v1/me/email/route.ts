// PUT /api/v1/me/email – a new address ({email, currentPassword}), unverified until its link is opened
import { meSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { changeEmail } from "@/lib/server/accounts/users";
import { json, otherMethods } from "@/lib/server/platform/api";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { emailChangeSchema } from "@/lib/validation/accounts";

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/me/email",
    tag: "Accounts",
    summary: "Change the address; a link goes to the new one",
    who: "signed in",
    auth: "required",
    body: emailChangeSchema,
    ok: { 200: { description: "the account, unverified", reply: meSchema } },
    errors: [403, 409, 429],
  },
  async ({ request, user, body }) => json(await changeEmail(user, body, clientAddress(request))),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
