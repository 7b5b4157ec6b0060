// POST /api/v1/password-reset/confirm – {token, password}; signs every session of the account out
import { handleApi, json, readJson } from "@/lib/server/api";
import { confirmPasswordReset } from "@/lib/server/email-links";

export const POST = handleApi(async (request) => {
  await confirmPasswordReset(await readJson(request));
  return json({ reset: true });
});
