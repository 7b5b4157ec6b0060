// POST /api/v1/me/verification – mail the verification link again (a few an hour)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { resendVerification } from "@/lib/server/accounts/email-links";

export const POST = handleApi(async (request) => {
  await resendVerification(await requireApiUser(request));
  return json({ sent: true }, 202);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
