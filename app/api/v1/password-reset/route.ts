// POST /api/v1/password-reset – {email}; 202 whether or not an account has that address
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requestPasswordReset } from "@/lib/server/accounts/email-links";
import { clientAddress } from "@/lib/server/platform/rate-limit";

export const POST = handleApi(async (request) => {
  await requestPasswordReset(await readJson(request), clientAddress(request));
  return json({ message: "If an account has this address, a link to choose a new password is on its way." }, 202);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
