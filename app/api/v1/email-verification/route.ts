// POST /api/v1/email-verification – {token} from the verification mail's link
import { z } from "zod";
import { verifyEmail } from "@/lib/server/accounts/email-links";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { emailVerificationSchema } from "@/lib/validation/accounts";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/email-verification",
    tag: "Accounts",
    summary: "Verify an address with the token of its link",
    who: "anyone with the link",
    auth: "none",
    body: emailVerificationSchema,
    ok: { 200: { description: "the address is verified", reply: z.object({ email: z.string(), verified: z.literal(true) }) } },
  },
  async ({ body }) => json({ ...(await verifyEmail(body)), verified: true }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
