// POST /api/v1/password-reset – {email}; 202 whether or not an account has that address
import { z } from "zod";
import { requestPasswordReset } from "@/lib/server/accounts/email-links";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { passwordResetRequestSchema } from "@/lib/validation/accounts";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/password-reset",
    tag: "Accounts",
    summary: "Mail a link to choose a new password (the same answer whatever the address)",
    who: "anyone",
    auth: "none",
    body: passwordResetRequestSchema,
    ok: { 202: { description: "accepted", reply: z.object({ message: z.string() }) } },
    errors: [429],
  },
  async ({ request, body }) => {
    await requestPasswordReset(body, clientAddress(request));
    return json({ message: "If an account has this address, a link to choose a new password is on its way." }, 202);
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
