// PUT /api/v1/me/password – change the caller's password ({currentPassword, newPassword}); every other session is signed out
import { doneSchema } from "@/lib/responses";
import { renewSession } from "@/lib/server/accounts/auth";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { changePassword } from "@/lib/server/accounts/users";
import { json, otherMethods } from "@/lib/server/platform/api";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { passwordChangeSchema } from "@/lib/validation/accounts";

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/me/password",
    tag: "Accounts",
    summary: "Change the password; every other session is signed out, API tokens stay",
    who: "signed in",
    auth: "required",
    body: passwordChangeSchema,
    ok: { 200: { description: "changed", reply: doneSchema("changed") } },
    errors: [403, 429],
  },
  async ({ request, user, body }) => {
    await renewSession(await changePassword(user, body, clientAddress(request)));
    return json({ changed: true });
  },
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
