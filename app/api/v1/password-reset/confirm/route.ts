// POST /api/v1/password-reset/confirm – {token, password}; signs every session of the account out
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { confirmPasswordReset } from "@/lib/server/accounts/email-links";

export const POST = handleApi(async (request) => {
  await confirmPasswordReset(await readJson(request));
  return json({ reset: true });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
