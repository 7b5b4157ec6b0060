// GET /api/v1/me/notifications – for each kind of notification mail, whether the caller gets it
// PUT /api/v1/me/notifications – switch kinds on or off ({announcements: false, …}; the others stay)
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { getNotificationSettings, updateNotificationSettings } from "@/lib/server/accounts/notifications";
import { json, otherMethods } from "@/lib/server/platform/api";
import { notificationSettingsSchema, notificationUpdateSchema } from "@/lib/validation/accounts";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/me/notifications",
    tag: "Accounts",
    summary: "For each kind of notification mail, whether the caller gets it",
    who: "signed in",
    auth: "required",
    ok: { 200: { description: "the settings", reply: notificationSettingsSchema } },
  },
  async ({ user }) => json(await getNotificationSettings(user)),
);

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/me/notifications",
    tag: "Accounts",
    summary: "Switch kinds of notification mail on or off (the kinds not named stay as they are)",
    who: "signed in",
    auth: "required",
    body: notificationUpdateSchema,
    ok: { 200: { description: "the settings", reply: notificationSettingsSchema } },
  },
  async ({ user, body }) => json(await updateNotificationSettings(user, body)),
);

export const { POST, PATCH, DELETE, OPTIONS } = otherMethods({ GET, PUT });
