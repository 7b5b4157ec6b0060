import "server-only";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { isUnsubscribeSignature } from "@/lib/server/platform/mail";
import { NOTIFICATION_KINDS, type NotificationKind, unsubscribeSchema } from "@/lib/validation/accounts";

/**
 * POST /api/v1/unsubscribe?user=…&kind=…&sig=… (the List-Unsubscribe link of a notification mail,
 * RFC 8058's one-click POST; no sign-in, the signature is the proof): the user gets no more mail of
 * that kind (the outbox leaves it out, lib/server/platform/outbox.ts). Doing it twice changes nothing.
 */
export async function unsubscribe(query: unknown): Promise<{ kind: NotificationKind; label: string; unsubscribed: true }> {
  const { user, kind, sig } = unsubscribeSchema.parse(query);
  if (!isUnsubscribeSignature(user, kind, sig)) throw new AppError("unprocessable_entity", "this unsubscribe link is not valid: open the link of a mail you received");
  await db.$executeRaw`UPDATE users SET muted_notifications = array_append(muted_notifications, ${kind}) WHERE id = ${user}::uuid AND NOT (${kind} = ANY(muted_notifications))`;
  return { kind, label: NOTIFICATION_KINDS[kind], unsubscribed: true };
}
