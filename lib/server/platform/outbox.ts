import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "./db";
import { env } from "./env";
import { log } from "./log";
import { deliverMail, type Mail, type MailKind, PermanentMailError, unsubscribeLinks } from "./mail";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * The outbox: every mail the app sends is first a row of the `outbox` table, written with the event
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
 * Once a mail is taken, its text and HTML are dropped from the row (they may hold a single-use link).
 */

/** One mail to queue: its event and recipient (`key`), its kind, and for a notification the recipient's account (muted kinds are not queued). */
export type Outgoing = { key: string; kind: MailKind; userId?: string; mail: Mail };

type Client = Pick<Prisma.TransactionClient, "outboxItem" | "user">;

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

type Claimed = { id: string; payload: Mail & { headers: Record<string, string> }; attempts: number; created_at: Date };

/** Claims due rows (those of `ids`, or any due at `now`) for this instance, counting the attempt. */
async function claim(now: Date, ids?: string[]): Promise<Claimed[]> {
  const which = ids ? Prisma.sql`id = ANY(${ids}::uuid[])` : Prisma.sql`next_attempt_at <= ${now}`;
  return db.$queryRaw<Claimed[]>`
    UPDATE outbox SET attempts = attempts + 1, locked_until = ${new Date(now.getTime() + CLAIM_MS)}
    WHERE id IN (
      SELECT id FROM outbox
      WHERE ${which} AND delivered_at IS NULL AND failed_at IS NULL AND (locked_until IS NULL OR locked_until <= ${now})
      ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
    RETURNING id, payload, attempts, created_at`;
}

/** Sends claimed rows one by one and records each outcome. The number taken by the SMTP server. */
async function send(rows: Claimed[], now: Date): Promise<number> {
  let delivered = 0;
  const host = new URL(env().NEXTAUTH_URL).hostname;
  for (const row of rows) {
    const { to, subject } = row.payload;
    try {
      await deliverMail({ ...row.payload, messageId: `<${row.id}@${host}>` });
      await db.outboxItem.update({ where: { id: row.id }, data: { deliveredAt: new Date(), lockedUntil: null, lastError: null, payload: { to, subject } } });
      delivered++;
    } catch (error) {
      const reason = (error as Error).message;
      const giveUp = error instanceof PermanentMailError || now.getTime() - row.created_at.getTime() >= GIVE_UP_MS;
      log[giveUp ? "error" : "warn"]({ subject, attempts: row.attempts, err: reason }, giveUp ? "a mail was given up" : "a mail could not be sent yet; it will be retried");
      await db.outboxItem.update({
        where: { id: row.id },
        data: giveUp
          ? { failedAt: new Date(), lockedUntil: null, lastError: reason, payload: { to, subject } }
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
