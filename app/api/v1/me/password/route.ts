// PUT /api/v1/me/password – change the caller's password ({currentPassword, newPassword}); every other session is signed out
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { renewSession, requireApiUser } from "@/lib/server/accounts/auth";
import { changePassword } from "@/lib/server/accounts/users";
import { clientAddress } from "@/lib/server/platform/rate-limit";

export const PUT = handleApi(async (request) => {
  const user = await requireApiUser(request);
  await renewSession(await changePassword(user, await readJson(request), clientAddress(request)));
  return json({ changed: true });
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
