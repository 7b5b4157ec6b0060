// POST /api/v1/password-reset/confirm – {token, password}; signs every session of the account out
import { doneSchema } from "@/lib/responses";
import { confirmPasswordReset } from "@/lib/server/accounts/email-links";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { passwordResetConfirmSchema } from "@/lib/validation/accounts";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/password-reset/confirm",
    tag: "Accounts",
    summary: "Choose a new password with the token of the link; every session is signed out and every API token revoked",
    who: "anyone with the link",
    auth: "none",
    body: passwordResetConfirmSchema,
    ok: { 200: { description: "reset", reply: doneSchema("reset") } },
  },
  async ({ body }) => {
    await confirmPasswordReset(body);
    return json({ reset: true });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
