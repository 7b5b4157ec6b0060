import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { notificationUpdateSchema, unsubscribeSchema } from "@/lib/validation/accounts";
import { getNotificationSettings, unsubscribe, updateNotificationSettings } from "@/lib/server/accounts/notifications";
import type { PublicUser } from "@/lib/server/accounts/users";
import { closeCompetition } from "@/lib/server/boards/finals";
import { listAnnouncements, postAnnouncement, remindDueCompetitions } from "@/lib/server/competitions/announcements";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { updateCompetition } from "@/lib/server/competitions/settings";
import { db } from "@/lib/server/platform/db";
import { createTeam, joinTeam } from "@/lib/server/teams/teams";
import { formatUtc } from "@/lib/format";
import { lastMailTo, mailCount } from "@/scripts/support/caught-mail";
import { draftCompetition, newUser, publishedCompetition, rejection } from "@/test/support/factories";
import { announcementSchema, updateCompetitionSchema } from "@/lib/validation/competitions";

// Announcements (lib/server/competitions/announcements.ts) through the real outbox and the test run's
// SMTP catcher (MailDev): each participant gets each announcement once, unless they turned its kind off.

type Caught = { to: { address: string }[]; subject: string; text: string; headers: Record<string, string> };
async function caught(address: string, subject: RegExp): Promise<Caught[]> {
  const mails = (await (await fetch(`${process.env.MAIL_UI_URL}/email`)).json()) as Caught[];
  return mails.filter((m) => m.to.some((t) => t.address === address) && subject.test(m.subject));
}

/** A published competition with two teams of two members each. */
async function withParticipants(options: Parameters<typeof publishedCompetition>[0] = {}) {
  const published = await publishedCompetition(options);
  const members: PublicUser[] = [];
  for (let i = 0; i < 2; i++) {
    const captain = await newUser("reader");
    const team = await createTeam(captain, published.slug, { name: `Readers ${i} ${randomBytes(3).toString("hex")}`, acceptRules: true });
    const second = await newUser("reader");
    await joinTeam(second, published.slug, { inviteCode: team.inviteCode });
    members.push(captain, second);
  }
  return { ...published, members };
}

/** Waits for `address` to have its mail matching `subject`, then a moment more for a duplicate, and counts them. */
async function settledCount(address: string, subject: RegExp): Promise<number> {
  await mailCount(address, 1, subject);
  await new Promise((r) => setTimeout(r, 300));
  return (await caught(address, subject)).length;
}

describe("announcements", () => {
  it("an organizer's post is listed and mailed once to each participant, not to one who turned announcements off, and its Markdown stays text", async () => {
    const { owner, slug, id, members } = await withParticipants();
    const competition = await requireOrganizer(owner, slug);
    // The first member turns announcements off through their link's own route (the account page does the same).
    const { unsubscribeSignature } = await import("@/lib/server/platform/mail");
    await unsubscribe({ user: members[0].id, kind: "announcements", sig: unsubscribeSignature(members[0].id, "announcements") });

    const body = "The **test set** was re-read.\n\n<script>alert(1)</script> Plain text only.";
    const posted = await postAnnouncement(owner, competition, announcementSchema.parse({ title: "  Data fixed  ", body }));
    expect(posted).toEqual({ id: expect.any(String), kind: "post", title: "Data fixed", body: body.trim(), by: owner.name, createdAt: expect.any(String) });
    expect(await listAnnouncements(id)).toEqual([posted]);

    const subject = /: Data fixed$/;
    for (const m of members.slice(1)) expect(await settledCount(m.email, subject), m.email).toBe(1);
    const mail = await lastMailTo(members[1].email, subject);
    expect(mail.subject).toBe(`Test competition: Data fixed`);
    expect(mail.text).toContain("The **test set** was re-read.");
    expect(mail.html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;"); // escaped: no markup reaches a mail client
    expect(mail.html).not.toContain("<script>");
    expect((await caught(members[1].email, subject))[0].headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(await mailCount(members[0].email, 0, subject)).toBe(0);
    expect(await db.outboxItem.count({ where: { key: { startsWith: `announcement:${posted.id}:` } } })).toBe(3);
  });

  it("is refused to a non-organizer (403), for a draft (409) and for an empty body, nothing stored", async () => {
    const { owner, slug, members } = await withParticipants();
    expect((await rejection(requireOrganizer(members[0], slug))).status).toBe(403);
    const competition = await requireOrganizer(owner, slug);
    // An empty body is refused where the request is parsed, before the service (422 naming body: test/e2e/api-organizer.test.ts).
    const draft = await draftCompetition();
    const error = await rejection(postAnnouncement(draft.owner, await requireOrganizer(draft.owner, draft.slug), announcementSchema.parse({ title: "Hello", body: "Hi" })));
    expect([error.status, error.message]).toEqual([409, "a draft has no participants yet: publish the competition first"]);
    expect(await listAnnouncements(competition.id)).toEqual([]);
    expect(await listAnnouncements(draft.competition.id)).toEqual([]);
  });

  it("a live change of the deadline and the daily cap is announced once, old → new; a change of the title is not", async () => {
    const { owner, slug, id, members, competition } = await withParticipants({ settings: { dailySubmissionLimit: 50 } });
    const endsAt = new Date(Date.now() + 20 * 86_400_000);
    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ endsAt: endsAt.toISOString(), dailySubmissionLimit: 10, title: "Renamed competition" }));
    const [notice] = await listAnnouncements(id);
    expect(notice).toMatchObject({ kind: "settings", by: null, title: "Changed: deadline, daily cap" });
    expect(notice.body).toBe(
      ["The organizers changed the competition's settings:", `Deadline: ${formatUtc(competition.endsAt)} UTC → ${formatUtc(endsAt)} UTC`, "Daily cap: 50 → 10"].join("\n\n"),
    );
    for (const m of members) expect(await settledCount(m.email, /^Renamed competition: Changed: deadline, daily cap$/), m.email).toBe(1);
    const mail = await lastMailTo(members[2].email, /Changed: deadline/);
    expect(mail.text).toContain("Daily cap: 50 → 10");

    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ title: "Renamed again" }));
    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: { requireVerifiedEmail: true, allowedEmailDomains: [], approval: false } }));
    const after = await listAnnouncements(id);
    expect(after.map((a) => a.title)).toEqual(["Changed: who may take part", "Changed: deadline, daily cap"]);
    expect(after[0].body).toContain("Who may take part: anyone with an account → verified email addresses only");
  });

  it("reminds once a day before the deadline, however many instances tick, and not earlier", async () => {
    const far = await withParticipants({ days: 3 });
    const near = await withParticipants({ days: 0.5 });
    const ticks = await Promise.all([remindDueCompetitions(), remindDueCompetitions(), remindDueCompetitions()]);
    expect(ticks.flat().filter((s) => s === near.slug)).toEqual([near.slug]);
    expect(ticks.flat()).not.toContain(far.slug);
    expect(await remindDueCompetitions()).not.toContain(near.slug);
    const [reminder] = await listAnnouncements(near.id);
    expect(reminder).toMatchObject({ kind: "reminder", title: "Closing in 12 hours", by: null });
    expect(await listAnnouncements(far.id)).toEqual([]);
    for (const m of near.members) expect(await settledCount(m.email, /: Closing in 12 hours$/), m.email).toBe(1);
    expect((await lastMailTo(near.members[0].email, /Closing in/)).text).toContain(`Submissions close on ${formatUtc(near.competition.endsAt)} UTC`);
  });

  it("the close is announced on the Overview; its mail is each member's final standings, not a second one", async () => {
    const { owner, slug, id, members } = await withParticipants();
    await closeCompetition(owner, slug);
    const [closed] = await listAnnouncements(id);
    expect(closed).toMatchObject({ kind: "closed", title: "The competition has closed", by: null });
    for (const m of members) {
      expect(await settledCount(m.email, /^Final standings of /), m.email).toBe(1);
      expect(await mailCount(m.email, 0, /has closed/)).toBe(0);
    }
  });

  it("the account's notification settings: each kind on or off, the others kept, honoured by the outbox; a one-click unsubscribe turns its kind off", async () => {
    const { owner, slug, id, members } = await withParticipants({ days: 0.5 });
    const [reader] = members;
    const all = { announcements: true, merge_requests: true, approvals: true, reminders: true, results: true };
    expect(await getNotificationSettings(reader)).toEqual(all);
    expect(await updateNotificationSettings(reader, { reminders: false, approvals: false })).toEqual({ ...all, reminders: false, approvals: false });
    expect(await updateNotificationSettings(reader, { approvals: true })).toEqual({ ...all, reminders: false });
    expect(() => notificationUpdateSchema.parse({ newsletters: false })).toThrow(/newsletters/); // refused where PUT …/notifications parses its body
    expect(await getNotificationSettings(reader)).toEqual({ ...all, reminders: false });

    await remindDueCompetitions();
    await postAnnouncement(owner, await requireOrganizer(owner, slug), announcementSchema.parse({ title: "Still on", body: "Hello." }));
    const keys = (await db.outboxItem.findMany({ where: { key: { contains: reader.id } }, select: { key: true } })).map((r) => r.key);
    const [reminder, post] = [...(await listAnnouncements(id))].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    expect(keys).toEqual([`announcement:${post.id}:${reader.id}`]); // the reminder was left out, the announcement not
    expect(reminder.kind).toBe("reminder");

    // The announcement's List-Unsubscribe link, followed as a mail client does (RFC 8058), turns announcements off.
    await lastMailTo(reader.email, /: Still on$/);
    const [mail] = await caught(reader.email, /: Still on$/);
    const query = unsubscribeSchema.parse(Object.fromEntries(new URL(mail.headers["list-unsubscribe"].replace(/^<|>$/g, "")).searchParams));
    expect(query.kind).toBe("announcements");
    expect(await unsubscribe(query)).toEqual({ kind: "announcements", label: "announcements and changed settings", unsubscribed: true });
    expect(await getNotificationSettings(reader)).toEqual({ ...all, reminders: false, announcements: false });
  });
});
