import "server-only";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { isUnsubscribeSignature } from "@/lib/server/platform/mail";
import type { PublicUser } from "./users";
import { NOTIFICATION_KINDS, type NotificationKind, type NotificationSettings, type NotificationUpdate, type UnsubscribeQuery } from "@/lib/validation/accounts";

/**
 * POST /api/v1/unsubscribe?user=…&kind=…&sig=… (the List-Unsubscribe link of a notification mail,
 * RFC 8058's one-click POST; no sign-in, the signature is the proof): the user gets no more mail of
 * that kind (the outbox leaves it out, lib/server/platform/outbox.ts). Doing it twice changes nothing.
 */
export async function unsubscribe({ user, kind, sig }: UnsubscribeQuery): Promise<{ kind: NotificationKind; label: string; unsubscribed: true }> {
  if (!isUnsubscribeSignature(user, kind, sig)) throw new AppError("unprocessable_entity", "this unsubscribe link is not valid: open the link of a mail you received");
  await db.$executeRaw`UPDATE users SET muted_notifications = array_append(muted_notifications, ${kind}) WHERE id = ${user}::uuid AND NOT (${kind} = ANY(muted_notifications))`;
  return { kind, label: NOTIFICATION_KINDS[kind], unsubscribed: true };
}

const settingsOf = (muted: string[]): NotificationSettings => Object.fromEntries(Object.keys(NOTIFICATION_KINDS).map((k) => [k, !muted.includes(k)])) as NotificationSettings;

/** GET /api/v1/me/notifications: for each kind of notification mail, whether the user gets it. */
export async function getNotificationSettings(user: PublicUser): Promise<NotificationSettings> {
  const { mutedNotifications } = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { mutedNotifications: true } });
  return settingsOf(mutedNotifications);
}

/**
 * PUT /api/v1/me/notifications `{kind: boolean, …}`: switches the kinds given on or off (the account
 * page's form; the others stay). One UPDATE, so a one-click unsubscribe at the same moment is kept.
 */
export async function updateNotificationSettings(user: PublicUser, input: NotificationUpdate): Promise<NotificationSettings> {
  const wanted = Object.entries(input);
  const off = wanted.filter(([, on]) => !on).map(([k]) => k);
  const on = wanted.filter(([, on]) => on).map(([k]) => k);
  const [row] = await db.$queryRaw<{ muted: string[] }[]>`
    UPDATE users SET muted_notifications = ARRAY(
      SELECT DISTINCT k FROM unnest(muted_notifications || ${off}::text[]) AS k WHERE NOT (k = ANY(${on}::text[])) ORDER BY k)
    WHERE id = ${user.id}::uuid RETURNING muted_notifications AS muted`;
  return settingsOf(row.muted);
}
