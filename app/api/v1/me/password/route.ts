// PUT /api/v1/me/password – change the caller's password ({currentPassword, newPassword})
import { handleApi, json, readJson } from "@/lib/server/api";
import { requireApiUser } from "@/lib/server/auth";
import { changePassword } from "@/lib/server/users";

export const PUT = handleApi(async (request) => {
  const user = await requireApiUser(request);
  await changePassword(user, await readJson(request));
  return json({ changed: true });
});
