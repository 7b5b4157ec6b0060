// GET /api/v1/me/notifications – for each kind of notification mail, whether the caller gets it
// PUT /api/v1/me/notifications – switch kinds on or off ({announcements: false, …}; the others stay)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { getNotificationSettings, updateNotificationSettings } from "@/lib/server/accounts/notifications";

export const GET = handleApi(async (request) => json(await getNotificationSettings(await requireApiUser(request))));

export const PUT = handleApi(async (request) => {
  const user = await requireApiUser(request);
  return json(await updateNotificationSettings(user, await readJson(request)));
});

export const { POST, PATCH, DELETE, OPTIONS } = otherMethods({ GET, PUT });
