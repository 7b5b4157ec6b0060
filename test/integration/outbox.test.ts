import { randomBytes } from "node:crypto";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { unsubscribeSchema } from "@/lib/validation/accounts";
import { unsubscribe } from "@/lib/server/accounts/notifications";
import { registerUser } from "@/lib/server/accounts/users";
import { closeCompetition } from "@/lib/server/closing/finals";
import { db } from "@/lib/server/platform/db";
import { message } from "@/lib/server/platform/mail";
import { backOffMs, deliver, drainOutbox, queueMails, sendMails } from "@/lib/server/platform/outbox";
import { submit } from "@/lib/server/scoring/submit";
import { createTeam, joinTeam } from "@/lib/server/teams/teams";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { lastMailTo, mailCount } from "@/scripts/support/caught-mail";
import { newUser, publishedCompetition, rejection, stream } from "@/test/support/factories";
import { freePort } from "@/scripts/db/admin";

// Every mail goes through the outbox (lib/server/platform/outbox.ts): queued in PostgreSQL, sent to
// the test run's real SMTP server (MailDev), retried after an outage. Here the app's SMTP_URL points
// at a relay on its own port that forwards to MailDev: closed, the SMTP server is down; listening, it is up.

const SMTP = new URL(process.env.SMTP_URL!);
const original = process.env.SMTP_URL;
afterEach(() => {
  process.env.SMTP_URL = original;
});

/** A relay on `port` to MailDev's SMTP port: the SMTP server as the app sees it, back up. */
async function relay(port: number): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(SMTP.port), SMTP.hostname);
    client.pipe(upstream).pipe(client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

type Caught = { to: { address: string }[]; subject: string; headers: Record<string, string> };
async function caught(address: string, subject: RegExp): Promise<Caught[]> {
  const mails = (await (await fetch(`${process.env.MAIL_UI_URL}/email`)).json()) as Caught[];
  return mails.filter((m) => m.to.some((t) => t.address === address) && subject.test(m.subject));
}

describe("the outbox", () => {
  it("an SMTP outage during a close loses no mail and duplicates none: each member gets one once the server is back", async () => {
    const { owner, slug, id } = await publishedCompetition({ days: 40, settings: { dailySubmissionLimit: 100 } });
    const members = [];
    for (let i = 0; i < 3; i++) {
      const captain = await newUser("closer");
      const team = await createTeam(captain, slug, { name: `Outage ${i} ${randomBytes(3).toString("hex")}`, acceptRules: true });
      await submit(captain, slug, stream(demoPredictionsCsv({ skill: 0.6 + 0.1 * i, seed: `outage-${i}` })));
      const second = await newUser("closer");
      await joinTeam(second, slug, { inviteCode: team.inviteCode });
      members.push(captain, second);
    }

    const port = await freePort();
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`; // down: nothing listens there
    const before = Date.now();
    await closeCompetition(owner, slug);
    expect((await db.competition.findUniqueOrThrow({ where: { id }, select: { status: true } })).status).toBe("closed");
    const queued = await db.outboxItem.findMany({ where: { key: { startsWith: `closed:${id}:` } } });
    expect(queued.map((r) => r.key).sort()).toEqual(members.map((m) => `closed:${id}:${m.id}`).sort());
    for (const row of queued) {
      expect(row).toMatchObject({ attempts: 1, deliveredAt: null, failedAt: null, lockedUntil: null });
      expect(row.lastError).toMatch(/ECONNREFUSED/);
      // The next attempt waits the first back-off (30 s).
      expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + backOffMs(1));
    }
    for (const m of members) expect(await mailCount(m.email)).toBe(0);

    // A minute later the server is back; two app instances' schedulers drain at once.
    const server = await relay(port);
    try {
      const later = new Date(Date.now() + 60_000);
      const sent = await Promise.all([drainOutbox(later), drainOutbox(later)]);
      expect(sent[0] + sent[1]).toBeGreaterThanOrEqual(members.length);
      await drainOutbox(new Date(Date.now() + 3_600_000)); // and again later: nothing left to send
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const rows = await db.outboxItem.findMany({ where: { key: { startsWith: `closed:${id}:` } } });
    for (const row of rows) {
      expect(row).toMatchObject({ attempts: 2, failedAt: null, lastError: null });
      expect(row.deliveredAt).not.toBeNull();
      expect(row.payload).toEqual({ to: expect.any(String), subject: expect.stringMatching(/^Final standings of /) }); // the text is dropped once sent
    }
    for (const m of members) {
      await lastMailTo(m.email, /Final standings of/);
      await new Promise((r) => setTimeout(r, 300)); // a duplicate would be stored by now
      expect(await caught(m.email, /Final standings of/), m.email).toHaveLength(1);
    }

    // A notification carries a one-click List-Unsubscribe (RFC 8058) that works without sign-in and turns that kind off.
    const [mail] = await caught(members[0].email, /Final standings of/);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const link = new URL(mail.headers["list-unsubscribe"].replace(/^<|>$/g, ""));
    expect(link.pathname).toBe("/api/v1/unsubscribe");
    const query = unsubscribeSchema.parse(Object.fromEntries(link.searchParams)); // as POST /api/v1/unsubscribe parses it
    expect((await rejection(unsubscribe({ ...query, sig: query.sig.replace(/^./, (c) => (c === "A" ? "B" : "A")) }))).status).toBe(422);
    expect((await rejection(unsubscribe({ ...query, kind: "merge_requests" as const }))).status).toBe(422); // signed for another kind
    expect(await unsubscribe(query)).toEqual({ kind: "results", label: "final standings", unsubscribed: true });
    expect(await unsubscribe(query)).toMatchObject({ unsubscribed: true });
    expect((await db.user.findUniqueOrThrow({ where: { id: members[0].id }, select: { mutedNotifications: true } })).mutedNotifications).toEqual(["results"]);
    const again = message({ to: members[0].email, subject: "Results again", name: "x", paragraphs: ["x"] });
    expect(await queueMails(db, [{ key: `test:${randomBytes(4).toString("hex")}`, kind: "results", userId: members[0].id, mail: again }])).toEqual([]);
  });

  it("queues a key once however often it is queued, and account mail has no unsubscribe link", async () => {
    const user = await newUser("once");
    const key = `test-once:${user.id}`;
    const mail = message({ to: user.email, subject: "Exactly once", name: user.name, paragraphs: ["Once."] });
    await Promise.all([sendMails([{ key, kind: "approvals", userId: user.id, mail }]), sendMails([{ key, kind: "approvals", userId: user.id, mail }])]);
    await sendMails([{ key, kind: "approvals", userId: user.id, mail }]);
    await lastMailTo(user.email, /Exactly once/);
    await new Promise((r) => setTimeout(r, 300));
    expect(await caught(user.email, /Exactly once/)).toHaveLength(1);

    const email = `outbox-${randomBytes(5).toString("hex")}@example.com`;
    // A client address of its own: the sign-up limit per address (20 an hour) is shared with every other file's "test-client".
    await registerUser({ email, password: "a long enough password", name: "Vera" }, `outbox-${randomBytes(4).toString("hex")}`);
    await lastMailTo(email, /Verify your email/);
    const [verification] = await caught(email, /Verify your email/);
    expect(verification.headers["list-unsubscribe"]).toBeUndefined();
  });

  it("gives a mail up when the server refuses it for a day, and keeps no link it held", async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
    const user = await newUser("given-up");
    const key = `test-give-up:${user.id}`;
    await sendMails([{ key, kind: "account", mail: message({ to: user.email, subject: "Never sent", name: user.name, paragraphs: ["A secret link"] }) }]);
    const row = await db.outboxItem.findUniqueOrThrow({ where: { key } });
    expect(row).toMatchObject({ attempts: 1, deliveredAt: null, failedAt: null });
    // Retried with back-off: 30 s, 1 min, 2 min, … at most an hour apart.
    expect([1, 2, 3, 4, 8, 20].map(backOffMs)).toEqual([30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
    await db.outboxItem.update({ where: { key }, data: { createdAt: new Date(Date.now() - 86_400_000) } });
    expect(await deliver([row.id])).toBe(0);
    const given = await db.outboxItem.findUniqueOrThrow({ where: { key } });
    expect(given.failedAt).not.toBeNull();
    expect(given.payload).toEqual({ to: user.email, subject: "Never sent" });
    expect(await deliver([row.id])).toBe(0); // never tried again
    expect((await db.outboxItem.findUniqueOrThrow({ where: { key } })).attempts).toBe(2);
  });
});
