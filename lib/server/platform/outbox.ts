import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "./db";
import { env } from "./env";
import { log } from "./log";
import { PermanentDeliveryError } from "./errors";
import { deliverMail, type Mail, type MailKind, unsubscribeLinks } from "./mail";
import { deliverWebhook } from "./webhook-delivery";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The outbox: every mail the app sends, and every event it sends a competition's webhooks
 * (`kind` "webhook", webhook-delivery.ts), is first a row of the `outbox` table, written with the event
 * it tells of (in the same transaction where the event is one, as the close's), then handed to the
 * SMTP server by `deliver` (right after, by the code that queued it) or by `drainOutbox` (the
 * scheduler, every QUILTBOARD_CLOSE_SECONDS on every app instance). A mail the server does not take
 * is tried again after 30 s, 1, 2, 4… minutes (at most an hour apart) until it is taken; it is given
 * up on a permanent refusal (a 5xx reply) or when it is still not taken a day after it was queued.
 *
 * Exactly once per recipient and event: `key` names both (`closed:{competition}:{user}`), is unique,
 * and a second queueing of the same key is a no-op. An instance claims the rows it sends (FOR UPDATE
 * SKIP LOCKED, then `locked_until` for two minutes), so two instances never send one row at once; a
 * crash between the server's answer and the row's update can send a mail twice, with one Message-ID.
 * Once a mail is taken, its text and HTML are dropped from the row (they may hold a single-use link);
 * once an event is taken, its body (the row keeps its webhook and type, the manage page's delivery log).
 */

/** One mail to queue: its event and recipient (`key`), its kind, and for a notification the recipient's account (muted kinds are not queued). */
export type Outgoing = { key: string; kind: MailKind; userId?: string; mail: Mail };

type Client = Pick<Prisma.TransactionClient, "outboxItem" | "user">;

/** One event to queue for a webhook: `key` names the event and the webhook (`{event}:{webhook}`), `body` is its JSON text. */
export type OutgoingEvent = { key: string; webhookId: string; type: string; body: string };

const eventRows = (items: OutgoingEvent[]) =>
  items.map((i) => ({ id: randomUUID(), key: i.key, kind: "webhook", payload: { webhookId: i.webhookId, type: i.type, body: i.body } }));

/** Queues webhook events through `client` (a transaction's, to queue with the event), leaving out a key already queued. The ids to `deliver` once committed. */
export async function queueEvents(client: Client, items: OutgoingEvent[]): Promise<string[]> {
  if (!items.length) return [];
  const created = await client.outboxItem.createManyAndReturn({ data: eventRows(items), skipDuplicates: true, select: { id: true } });
  return created.map((r) => r.id);
}

/**
 * The statement that queues webhook events in a node-postgres transaction (db.ts `transaction`, whose
 * `write` sends it with the COMMIT: the scoring transaction's), leaving out a key already queued, and
 * the ids it gives them, to `deliver` once committed. Null when there is nothing to queue.
 */
export function queueEventsStatement(items: OutgoingEvent[]): { statement: Prisma.Sql; ids: string[] } | null {
  if (!items.length) return null;
  const rows = eventRows(items);
  const values = rows.map((r) => Prisma.sql`(${r.id}::uuid, ${r.key}, ${r.kind}, ${JSON.stringify(r.payload)}::jsonb)`);
  return { statement: Prisma.sql`INSERT INTO outbox (id, key, kind, payload) VALUES ${Prisma.join(values)} ON CONFLICT (key) DO NOTHING`, ids: rows.map((r) => r.id) };
}

const CLAIM_MS = 120_000;
const GIVE_UP_MS = 86_400_000;
const BATCH = 50;

/** The wait before attempt `attempts + 1`: 30 s, doubling, at most an hour. */
export function backOffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A notification's mail with its unsubscribe line (text and HTML) and its List-Unsubscribe headers (RFC 2369, one-click per RFC 8058). */
function withUnsubscribe(mail: Mail, userId: string, kind: MailKind): Mail & { headers: Record<string, string> } {
  const { oneClick, page } = unsubscribeLinks(userId, kind);
  const line = `You get this mail because you take part in a Quiltboard competition. To get no more mail of this kind (${kind.replace("_", " ")}): ${page}`;
  return {
    ...mail,
    text: `${mail.text}\n\n${line}\n`,
    html: mail.html.replace("</body>", `<p style="font-size: 12px; color: #64748b">${escape(line)}</p>\n</body>`),
    headers: { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/**
 * Queues `items` through `client` (a transaction's, to queue with the event), leaving out a key
 * already queued and a notification whose recipient turned its kind off. The ids of the rows queued,
 * for `deliver` once the transaction has committed.
 */
export async function queueMails(client: Client, items: Outgoing[]): Promise<string[]> {
  if (!items.length) return [];
  const users = [...new Set(items.filter((i) => i.kind !== "account" && i.userId).map((i) => i.userId!))];
  const muted = new Map(
    (users.length ? await client.user.findMany({ where: { id: { in: users } }, select: { id: true, mutedNotifications: true } }) : []).map((u) => [u.id, u.mutedNotifications]),
  );
  const rows = items
    .filter((i) => i.kind === "account" || !i.userId || !muted.get(i.userId)?.includes(i.kind))
    .map((i) => ({
      id: randomUUID(),
      key: i.key,
      kind: i.kind,
      payload: i.kind === "account" || !i.userId ? { ...i.mail, headers: {} } : withUnsubscribe(i.mail, i.userId, i.kind),
    }));
  const created = await client.outboxItem.createManyAndReturn({ data: rows, skipDuplicates: true, select: { id: true } });
  return created.map((r) => r.id);
}

/** Queues `items` and tries to send them at once (outside any transaction); whatever the SMTP server does not take now, the scheduler retries. */
export async function sendMails(items: Outgoing[]): Promise<void> {
  await deliver(await queueMails(db, items));
}

type Event = { webhookId: string; type: string; body: string };
type Claimed = { id: string; kind: string; payload: (Mail & { headers: Record<string, string> }) | Event; attempts: number; created_at: Date };

/** Claims due rows (those of `ids`, or any due at `now`) for this instance, counting the attempt. */
async function claim(now: Date, ids?: string[]): Promise<Claimed[]> {
  const which = ids ? Prisma.sql`id = ANY(${ids}::uuid[])` : Prisma.sql`next_attempt_at <= ${now}`;
  return db.$queryRaw<Claimed[]>`
    UPDATE outbox SET attempts = attempts + 1, locked_until = ${new Date(now.getTime() + CLAIM_MS)}
    WHERE id IN (
      SELECT id FROM outbox
      WHERE ${which} AND delivered_at IS NULL AND failed_at IS NULL AND (locked_until IS NULL OR locked_until <= ${now})
      ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
    RETURNING id, kind, payload, attempts, created_at`;
}

/** Hands one claimed row to its receiver: the SMTP server, or the webhook's URL (read now: a webhook deleted meanwhile gives its events up). */
async function handOver(row: Claimed, host: string): Promise<void> {
  if (row.kind === "webhook") {
    const { webhookId, body } = row.payload as Event;
    const webhook = await db.webhook.findUnique({ where: { id: webhookId }, select: { url: true, secret: true } });
    if (!webhook) throw new PermanentDeliveryError("the webhook was deleted");
    return deliverWebhook({ id: row.id, url: webhook.url, secret: webhook.secret, body });
  }
  await deliverMail({ ...(row.payload as Mail & { headers: Record<string, string> }), messageId: `<${row.id}@${host}>` });
}

/** Sends claimed rows one by one and records each outcome. The number taken by their receivers. */
async function send(rows: Claimed[], now: Date): Promise<number> {
  let delivered = 0;
  const host = new URL(env().NEXTAUTH_URL).hostname;
  for (const row of rows) {
    // What the row keeps once it is taken or given up: a mail's recipient and subject, an event's webhook and type.
    const event = row.kind === "webhook" ? (row.payload as Event) : null;
    const summary = event ? { webhookId: event.webhookId, type: event.type } : { to: (row.payload as Mail).to, subject: (row.payload as Mail).subject };
    const what = event ? "webhook event" : "mail";
    try {
      await handOver(row, host);
      await db.outboxItem.update({ where: { id: row.id }, data: { deliveredAt: new Date(), lockedUntil: null, lastError: null, payload: summary } });
      delivered++;
    } catch (error) {
      const reason = (error as Error).message;
      const giveUp = error instanceof PermanentDeliveryError || now.getTime() - row.created_at.getTime() >= GIVE_UP_MS;
      const about = event ? { event: event.type, webhook: event.webhookId } : { subject: (row.payload as Mail).subject };
      log[giveUp ? "error" : "warn"]({ ...about, attempts: row.attempts, err: reason }, giveUp ? `a ${what} was given up` : `a ${what} could not be sent yet; it will be retried`);
      await db.outboxItem.update({
        where: { id: row.id },
        data: giveUp
          ? { failedAt: new Date(), lockedUntil: null, lastError: reason, payload: summary }
          : { nextAttemptAt: new Date(now.getTime() + backOffMs(row.attempts)), lockedUntil: null, lastError: reason },
      });
    }
  }
  return delivered;
}

/** Tries to send the rows `ids` now (just queued); failures wait for their next attempt. The number sent. */
export async function deliver(ids: string[], now = new Date()): Promise<number> {
  return ids.length ? send(await claim(now, ids), now) : 0;
}

/** Sends every row due at `now`, in batches, until none is left (the scheduler's tick). The number sent. */
export async function drainOutbox(now = new Date()): Promise<number> {
  let delivered = 0;
  for (;;) {
    const rows = await claim(now);
    if (!rows.length) return delivered;
    delivered += await send(rows, now);
  }
}
