import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import type { CompetitionRow, OrganizedCompetition } from "./competitions";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { deliver, type OutgoingEvent, queueEvents } from "@/lib/server/platform/outbox";
import { checkWebhookUrl } from "@/lib/server/platform/webhook-delivery";
import type { PublicUser } from "@/lib/server/accounts/users";
import { Prisma } from "@/lib/generated/prisma/client";
import type { WebhookEvent, WebhookInput } from "@/lib/validation/competitions";
import { isUuid } from "@/lib/validation/ids";
import type { WebhookView } from "@/lib/responses";

/**
 * A competition's webhooks: its organizers' receivers of its events (docs/api.md, Webhooks), each
 * with its own signing secret in Standard Webhooks' `whsec_` form, shown once in the creation's
 * answer and never again (not in a list, a page or a log). Each event is queued in the outbox
 * (platform/outbox.ts, kind "webhook") once per event and webhook (`{type}:{event}:{webhook}`), in
 * the transaction of what it tells (so that no event is lost to a crash after its commit), and retried
 * with back-off like a mail.
 * No event carries a secret: `submission.scored` says which team submitted, when, and its budget
 * (which the live board shows), never a score.
 */

const MAX_WEBHOOKS = 5;
const LOG_LENGTH = 20;

type Client = Pick<Prisma.TransactionClient, "$queryRaw" | "outboxItem" | "user">;

/** An event of a competition: its type, its id (with the type and each webhook, the outbox key that makes it once), what it tells and when. */
export type CompetitionEvent = { type: WebhookEvent; id: string; data: Record<string, unknown>; at?: Date };

/** The statement that reads which webhooks of `competitionId` receive `type`: those of all events, and those that chose it. */
export function receiversOf(competitionId: string, type: WebhookEvent): Prisma.Sql {
  return Prisma.sql`SELECT id FROM webhooks WHERE competition_id = ${competitionId}::uuid AND (all_events OR ${type} = ANY (events))`;
}

/** `event` as the outbox queues it for each of the webhooks `receivers` (receiversOf's rows). */
export function eventFor(competition: Pick<CompetitionRow, "slug">, event: CompetitionEvent, receivers: { id: string }[]): OutgoingEvent[] {
  const body = JSON.stringify({ type: event.type, timestamp: (event.at ?? new Date()).toISOString(), data: { competition: competition.slug, ...event.data } });
  return receivers.map((w) => ({ key: `${event.type}:${event.id}:${w.id}`, webhookId: w.id, type: event.type, body }));
}

/**
 * Queues `event` for every webhook of `competition` that receives it, through `client` (a
 * transaction's, to queue it with what it tells of). The ids to `deliver` once committed.
 */
export async function queueEvent(client: Client, competition: Pick<CompetitionRow, "id" | "slug">, event: CompetitionEvent): Promise<string[]> {
  return queueEvents(client, eventFor(competition, event, await client.$queryRaw<{ id: string }[]>(receiversOf(competition.id, event.type))));
}

/** POST …/webhooks `{url, events?}` (organizers): the webhook with its secret, shown this once. 422 for an address it may not send to, 409 past 5. */
export async function createWebhook(user: PublicUser, competition: OrganizedCompetition, { url, events }: WebhookInput) {
  await checkWebhookUrl(url);
  if ((await db.webhook.count({ where: { competitionId: competition.id } })) >= MAX_WEBHOOKS)
    throw new AppError("conflict", `a competition has at most ${MAX_WEBHOOKS} webhooks: delete one first`);
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const all = events === "all";
  const row = await db.webhook.create({
    data: { id: randomUUID(), competitionId: competition.id, url, events: all ? [] : events, allEvents: all, secret, createdById: user.id },
    select: { id: true, url: true, events: true, allEvents: true, createdAt: true },
  });
  return { id: row.id, url: row.url, events: eventsOf(row), secret, createdAt: row.createdAt.toISOString() };
}

/** What a webhook receives as the API says it: "all", or its list. */
const eventsOf = (w: { events: string[]; allEvents: boolean }): "all" | string[] => (w.allEvents ? "all" : w.events);

/** GET …/webhooks (organizers): each webhook with its last 20 deliveries, newest first; never a secret. */
export async function listWebhooks(competition: OrganizedCompetition): Promise<WebhookView[]> {
  const rows = await db.webhook.findMany({
    where: { competitionId: competition.id },
    orderBy: { createdAt: "asc" },
    select: { id: true, url: true, events: true, allEvents: true, createdAt: true },
  });
  return Promise.all(
    rows.map(async (w) => {
      const deliveries = await db.outboxItem.findMany({
        where: { kind: "webhook", payload: { path: ["webhookId"], equals: w.id } },
        orderBy: { createdAt: "desc" },
        take: LOG_LENGTH,
        select: { id: true, payload: true, attempts: true, lastError: true, createdAt: true, deliveredAt: true, failedAt: true },
      });
      return {
        id: w.id,
        url: w.url,
        events: eventsOf(w),
        createdAt: w.createdAt.toISOString(),
        deliveries: deliveries.map((d) => ({
          id: d.id,
          type: (d.payload as { type: string }).type,
          state: d.deliveredAt ? ("delivered" as const) : d.failedAt ? ("failed" as const) : ("pending" as const),
          attempts: d.attempts,
          lastError: d.lastError,
          createdAt: d.createdAt.toISOString(),
          deliveredAt: d.deliveredAt?.toISOString() ?? null,
        })),
      };
    }),
  );
}

async function webhookOf(competition: OrganizedCompetition, id: string): Promise<string> {
  const found = isUuid(id) && (await db.webhook.findFirst({ where: { id, competitionId: competition.id }, select: { id: true } }));
  if (!found) throw new AppError("not_found", "no such webhook");
  return found.id;
}

/** DELETE …/webhooks/{id} (organizers): no more events go to it; those still queued are given up. */
export async function deleteWebhook(competition: OrganizedCompetition, id: string): Promise<{ deleted: true }> {
  await db.webhook.delete({ where: { id: await webhookOf(competition, id) } });
  return { deleted: true };
}

/** POST …/webhooks/{id}/test (organizers): a `webhook.test` event to that webhook alone, through the outbox like any other. */
export async function sendTestEvent(competition: OrganizedCompetition, id: string): Promise<{ queued: true; id: string }> {
  const webhookId = await webhookOf(competition, id);
  const eventId = randomUUID();
  const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: { competition: competition.slug } });
  const [queued] = await queueEvents(db, [{ key: `webhook.test:${eventId}:${webhookId}`, webhookId, type: "webhook.test", body }]);
  await deliver([queued]);
  return { queued: true, id: queued };
}
