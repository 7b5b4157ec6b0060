import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { closeCompetition } from "@/lib/server/boards/finals";
import { postAnnouncement } from "@/lib/server/competitions/announcements";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { updateCompetition } from "@/lib/server/competitions/settings";
import { createWebhook, deleteWebhook, listWebhooks, sendTestEvent } from "@/lib/server/competitions/webhooks";
import { db } from "@/lib/server/platform/db";
import { drainOutbox } from "@/lib/server/platform/outbox";
import { isPrivateAddress } from "@/lib/server/platform/webhook-delivery";
import { submit } from "@/lib/server/scoring/submit";
import { acceptMerge, requestMerge } from "@/lib/server/teams/merges";
import { createTeam, joinTeam } from "@/lib/server/teams/teams";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { newUser, publishedCompetition, rejection, stream } from "@/test/support/factories";
import { announcementSchema, updateCompetitionSchema, webhookSchema } from "@/lib/validation/competitions";

// Webhooks (lib/server/competitions/webhooks.ts) to a real HTTP receiver on 127.0.0.1, which checks
// every request's Standard Webhooks signature with the `standardwebhooks` library, as a receiver
// would. scripts/test.ts sets QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE=1 for the suite; the refusals switch it off.

// A process that dies once a request's transaction has committed runs nothing after it: while
// `process.dies`, the work queued to run after the answer (platform/background.ts) is dropped.
const process_ = vi.hoisted(() => ({ dies: false }));
vi.mock("@/lib/server/platform/background", async (original) => {
  const real = await original<typeof import("@/lib/server/platform/background")>();
  return { runAfterAnswer: (what: string, task: () => Promise<void>) => (process_.dies ? undefined : real.runAfterAnswer(what, task)) };
});

const allowed = process.env.QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE;
afterEach(() => {
  process.env.QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE = allowed;
  process_.dies = false;
});

type Received = { id: string; type: string; data: Record<string, unknown>; verified: boolean; status: number };

/** A receiver on 127.0.0.1 that answers 503 to its first `failFirst` requests (an outage), then 204; it verifies each signature under `secret()`. */
async function receiver(failFirst: number, secret: () => string) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      try {
        new Webhook(secret()).verify(body, request.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
      const status = received.length < failFirst ? 503 : 204;
      received.push({ id: String(request.headers["webhook-id"]), type: parsed.type, data: parsed.data, verified, status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, received, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("webhooks", () => {
  it("each event reaches the receiver once after its outage, every signature verifies, and no event carries a score", async () => {
    const { owner, slug } = await publishedCompetition({ settings: { dailySubmissionLimit: 50 } });
    const competition = await requireOrganizer(owner, slug);
    let secret = "";
    const hooks = await receiver(3, () => secret);
    try {
      const created = await createWebhook(owner, competition, webhookSchema.parse({ url: hooks.url }));
      secret = created.secret;
      expect(created).toEqual({
        id: expect.any(String),
        url: hooks.url,
        events: "all",
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
        createdAt: expect.any(String),
      });
      expect(JSON.stringify(await listWebhooks(competition))).not.toContain(created.secret.slice(6));
      // "all" is kept as such, not as today's list: an event added later reaches it too.
      expect((await listWebhooks(competition)).map((w) => w.events)).toEqual(["all"]);
      expect(await db.webhook.findUniqueOrThrow({ where: { id: created.id }, select: { events: true, allEvents: true } })).toEqual({ events: [], allEvents: true });

      const captain = await newUser("hooked");
      const team = await createTeam(captain, slug, { name: `Hooked ${created.id.slice(0, 6)}`, acceptRules: true });
      const { result } = await submit(captain, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "hooked" })));
      // A two-member team merges into the captain's.
      const [joiner, friend] = [await newUser("joiner"), await newUser("friend")];
      const joined = await createTeam(joiner, slug, { name: `Joined ${created.id.slice(0, 6)}`, acceptRules: true });
      await joinTeam(friend, slug, { inviteCode: joined.inviteCode });
      const asked = await requestMerge(captain, slug, { inviteCode: joined.inviteCode });
      await acceptMerge(friend, slug, asked.id);
      await postAnnouncement(owner, competition, announcementSchema.parse({ title: "Hooks on", body: "Hello, receivers." }));
      await updateCompetition(owner, slug, updateCompetitionSchema.parse({ dailySubmissionLimit: 10 }));
      await closeCompetition(owner, slug);

      // The first three attempts met the outage; two instances drain at once a minute later, then once more much later.
      const later = new Date(Date.now() + 60_000);
      await Promise.all([drainOutbox(later), drainOutbox(later)]);
      await drainOutbox(new Date(Date.now() + 3_600_000));

      const taken = hooks.received.filter((r) => r.status === 204);
      expect(hooks.received.every((r) => r.verified)).toBe(true);
      expect(hooks.received.filter((r) => r.status === 503)).toHaveLength(3);
      expect(taken.map((r) => r.type).sort()).toEqual(["announcement.posted", "competition.closed", "settings.changed", "submission.scored", "team.merged"]);
      expect(new Set(taken.map((r) => r.id)).size).toBe(5);
      // A retry carries the same webhook-id as the attempt that failed.
      for (const failed of hooks.received.filter((r) => r.status === 503)) expect(taken.map((r) => r.id)).toContain(failed.id);

      const scored = taken.find((r) => r.type === "submission.scored")!;
      expect(scored.data).toEqual({
        competition: slug,
        submission: { id: result.id, createdAt: result.createdAt, late: false },
        team: { id: team.id },
        budget: result.budget,
      });
      expect(JSON.stringify(scored.data)).not.toMatch(/score|holdout|answer/i);
      expect(taken.find((r) => r.type === "team.merged")!.data).toEqual({
        competition: slug,
        team: { id: team.id, name: team.name },
        merged: { id: joined.id, name: joined.name },
        members: 3,
      });
      expect(taken.find((r) => r.type === "settings.changed")!.data).toEqual({ competition: slug, changes: [{ field: "dailySubmissionLimit", before: 50, after: 10 }] });
      expect(taken.find((r) => r.type === "announcement.posted")!.data).toMatchObject({ announcement: { title: "Hooks on", body: "Hello, receivers." } });
      expect(taken.find((r) => r.type === "competition.closed")!.data).toMatchObject({
        competition: slug,
        teams: 1,
        finalStandings: expect.stringMatching(new RegExp(`/api/v1/competitions/${slug}/final$`)),
      });

      const [log] = await listWebhooks(competition);
      expect(log.deliveries.map((d) => [d.type, d.state]).sort()).toEqual([
        ["announcement.posted", "delivered"],
        ["competition.closed", "delivered"],
        ["settings.changed", "delivered"],
        ["submission.scored", "delivered"],
        ["team.merged", "delivered"],
      ]);
      expect(log.deliveries.reduce((sum, d) => sum + d.attempts, 0)).toBe(8);

      // The test event goes to that webhook; once deleted, nothing more is queued for it.
      await sendTestEvent(competition, created.id);
      expect(hooks.received.at(-1)).toMatchObject({ type: "webhook.test", status: 204, verified: true });
      expect(await deleteWebhook(competition, created.id)).toEqual({ deleted: true });
      expect(await listWebhooks(competition)).toEqual([]);
    } finally {
      await hooks.close();
    }
  });

  it("loses no submission.scored event when the process dies right after the scoring transaction commits: the scheduler sends it", async () => {
    const { owner, slug } = await publishedCompetition({ settings: { lateSubmissions: true } });
    const competition = await requireOrganizer(owner, slug);
    let secret = "";
    const hooks = await receiver(0, () => secret);
    try {
      secret = (await createWebhook(owner, competition, webhookSchema.parse({ url: hooks.url }))).secret;
      const captain = await newUser("dying");
      const team = await createTeam(captain, slug, { name: `Dying ${slug.slice(-6)}`, acceptRules: true });
      process_.dies = true;
      const { result } = await submit(captain, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "dying" })));
      // A late submission (after the close) is queued the same way, in its own transaction.
      await closeCompetition(owner, slug);
      const { result: late } = await submit(captain, slug, stream(demoPredictionsCsv({ skill: 0.6, seed: "dying-late" })));
      process_.dies = false;
      // The close's event went out at once (its process lived); the submissions' did not.
      expect(hooks.received.map((r) => r.type)).toEqual(["competition.closed"]);

      // Another instance's scheduler tick sends what the dead process queued with its commits, once.
      await Promise.all([drainOutbox(), drainOutbox()]);
      const lateness = (r: Received) => Number((r.data.submission as { late: boolean }).late);
      const scored = hooks.received.filter((r) => r.type === "submission.scored").sort((a, b) => lateness(a) - lateness(b));
      expect(scored.map((r) => [r.data, r.verified, r.status])).toEqual([
        [{ competition: slug, submission: { id: result.id, createdAt: result.createdAt, late: false }, team: { id: team.id }, budget: result.budget }, true, 204],
        [{ competition: slug, submission: { id: late.id, createdAt: late.createdAt, late: true }, team: { id: team.id }, budget: late.budget }, true, 204],
      ]);
      await drainOutbox(new Date(Date.now() + 3_600_000));
      expect(hooks.received.filter((r) => r.type === "submission.scored")).toHaveLength(2);
    } finally {
      await hooks.close();
    }
  });

  it("refuses a receiver on a private, loopback or link-local address, by its name's resolution too, unless the deployment allows it", async () => {
    const { owner, slug } = await publishedCompetition();
    const competition = await requireOrganizer(owner, slug);
    process.env.QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE = "0";
    for (const [url, address] of [
      ["http://127.0.0.1:9/x", "127\\.0\\.0\\.1"],
      ["http://localhost:9/x", "127\\.0\\.0\\.1|::1"], // a name: refused for what it resolves to
      ["https://10.1.2.3/x", "10\\.1\\.2\\.3"],
      ["http://169.254.169.254/latest/meta-data", "169\\.254\\.169\\.254"],
      ["http://[::1]:9/x", "::1"],
      ["http://[::ffff:127.0.0.1]/x", "::ffff:7f00:1"],
    ]) {
      const error = await rejection(createWebhook(owner, competition, webhookSchema.parse({ url })));
      expect(error.status, url).toBe(422);
      expect(error.message, url).toMatch(new RegExp(`^url: \\S+ resolves to a private, loopback or link-local address \\((${address})\\); webhooks go to public addresses only$`));
    }
    expect((await rejection(createWebhook(owner, competition, webhookSchema.parse({ url: "https://no-such-host.invalid/x" })))).message).toBe(
      "url: no-such-host.invalid does not resolve",
    );
    // An address that is not http or https is refused where the request is parsed, before the service (422 naming url: test/e2e/api-organizer.test.ts).
    expect(await db.webhook.count({ where: { competitionId: competition.id } })).toBe(0);
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"]) expect(isPrivateAddress(a), a).toBe(false);
    for (const a of ["172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "0.0.0.0", "fd12::1", "fe80::1", "::"]) expect(isPrivateAddress(a), a).toBe(true);

    // Added while allowed, refused at delivery once it is not: the connection's own lookup checks, and the event is given up.
    process.env.QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE = "1";
    const hooks = await receiver(0, () => "");
    try {
      const created = await createWebhook(
        owner,
        competition,
        webhookSchema.parse({ url: hooks.url.replace("127.0.0.1", "localhost"), events: ["settings.changed", "settings.changed"] }),
      );
      expect(created.events).toEqual(["settings.changed"]);
      process.env.QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE = "0";
      await updateCompetition(owner, slug, updateCompetitionSchema.parse({ dailySubmissionLimit: 7 }));
      const [log] = await listWebhooks(competition);
      expect(log.deliveries).toEqual([
        expect.objectContaining({ type: "settings.changed", state: "failed", attempts: 1, lastError: expect.stringMatching(/^localhost resolves to a private address/) }),
      ]);
      expect(hooks.received).toEqual([]);
    } finally {
      await hooks.close();
    }
  });
});
