// PUT /api/v1/me/password – change the caller's password ({currentPassword, newPassword})
import { handleApi, json, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { changePassword } from "@/lib/server/accounts/users";

export const PUT = handleApi(async (request) => {
  const user = await requireApiUser(request);
  await changePassword(user, await readJson(request));
  return json({ changed: true });
});
