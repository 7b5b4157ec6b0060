// POST /api/v1/me/verification – mail the verification link again (a few an hour)
import { doneSchema } from "@/lib/responses";
import { resendVerification } from "@/lib/server/accounts/email-links";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/me/verification",
    tag: "Accounts",
    summary: "Mail the verification link again",
    who: "signed in",
    auth: "required",
    ok: { 202: { description: "sent", reply: doneSchema("sent") } },
    errors: [403, 409, 429],
  },
  async ({ user }) => {
    await resendVerification(user);
    return json({ sent: true }, 202);
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
