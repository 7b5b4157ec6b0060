import "server-only";
import { randomUUID } from "node:crypto";
import type { CompetitionRow, OrganizedCompetition } from "./competitions";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { appLink, message } from "@/lib/server/platform/mail";
import { deliver, type Outgoing, queueMails } from "@/lib/server/platform/outbox";
import { queueEvent } from "./webhooks";
import type { PublicUser } from "@/lib/server/accounts/users";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AnnouncementInput } from "@/lib/validation/competitions";
import type { AnnouncementView, SettingChange } from "@/lib/responses";
import { describeChange } from "@/lib/setting-values";
import { formatUtc } from "@/lib/format";

/**
 * What a competition's participants are told: an organizer's Markdown post, and the app's own
 * notices when live settings change (the deadline, the daily cap, who may take part: each old → new),
 * a day before the deadline, and at the close. Each is shown on the Overview with its date and mailed
 * to every member of every team of the competition through the outbox, once per recipient
 * (`announcement:{id}:{user}`), queued in the transaction that records it; a member who turned the
 * kind off (the account page, or a mail's unsubscribe link) is left out. The close's notice is not
 * mailed: the close already mails every member their final place (boards/finals.ts, kind `results`).
 */

type Kind = AnnouncementView["kind"];

/** The settings whose change competitors are told of: what decides how, until when and whether they may submit. */
const ANNOUNCED_SETTINGS = ["endsAt", "dailySubmissionLimit", "access"] as const;

/** Which notification kind (lib/validation/accounts.ts NOTIFICATION_KINDS) mails an announcement, or null for none. */
const MAIL_KIND = { post: "announcements", settings: "announcements", reminder: "reminders", closed: null } as const;

const REMIND_MS = 86_400_000;

type Notice = { kind: Kind; title: string; body: string; authorId?: string; key?: string };

/**
 * Records `notice` for `competition` through `tx` and queues its mail to every team member; with a
 * `key`, once per competition and key (a second call is a no-op: `created` false); an organizer's
 * post goes to the competition's webhooks too (`announcement.posted`). `queued`: the outbox rows to
 * `deliver` once `tx` has committed.
 */
export async function announce(
  tx: Prisma.TransactionClient,
  competition: Pick<CompetitionRow, "id" | "slug" | "title">,
  notice: Notice,
): Promise<{ created: boolean; queued: string[] }> {
  const [row] = await tx.announcement.createManyAndReturn({
    data: [
      { id: randomUUID(), competitionId: competition.id, authorId: notice.authorId ?? null, kind: notice.kind, key: notice.key ?? null, title: notice.title, body: notice.body },
    ],
    skipDuplicates: true,
    select: { id: true, createdAt: true },
  });
  const kind = MAIL_KIND[notice.kind];
  if (!row || !kind) return { created: !!row, queued: [] };
  const events =
    notice.kind === "post"
      ? await queueEvent(tx, competition, {
          type: "announcement.posted",
          id: row.id,
          at: row.createdAt,
          data: { announcement: { id: row.id, title: notice.title, body: notice.body, createdAt: row.createdAt.toISOString() } },
        })
      : [];
  const members = await tx.teamMember.findMany({ where: { competitionId: competition.id }, select: { user: { select: { id: true, email: true, name: true } } } });
  const mails: Outgoing[] = members.map(({ user }) => ({
    key: `announcement:${row.id}:${user.id}`,
    kind,
    userId: user.id,
    mail: message({
      to: user.email,
      subject: `${competition.title}: ${notice.title}`,
      name: user.name,
      paragraphs: notice.body.split(/\n\s*\n/).map((p) => p.trim()),
      action: { label: "Open the competition", url: appLink(`/competitions/${competition.slug}`) },
    }),
  }));
  return { created: true, queued: [...(await queueMails(tx, mails)), ...events] };
}

/** The notice of a live settings change, or null when none of ANNOUNCED_SETTINGS changed: each setting's name, old → new, in words. */
export function settingsNotice(changes: SettingChange[]): Notice | null {
  const told = changes.filter((c) => (ANNOUNCED_SETTINGS as readonly string[]).includes(c.field)).map(describeChange);
  if (!told.length) return null;
  return {
    kind: "settings",
    title: `Changed: ${told.map((c) => c.name.toLowerCase()).join(", ")}`,
    body: ["The organizers changed the competition's settings:", ...told.map((c) => `${c.name}: ${c.before} → ${c.after}`)].join("\n\n"),
  };
}

/** The notice recorded when `competition` closes (shown on the Overview; the close's own mail tells each member). */
export function closedNotice(closedAt: Date): Notice {
  return {
    kind: "closed",
    key: "closed",
    title: "The competition has closed",
    body: `Submissions closed on ${formatUtc(closedAt)} UTC. The final standings, scored exactly on the holdout, are on the leaderboard.`,
  };
}

/** POST …/announcements (organizers, once published): posts and mails an announcement. */
export async function postAnnouncement(user: PublicUser, competition: OrganizedCompetition, { title, body }: AnnouncementInput): Promise<AnnouncementView> {
  if (competition.status === "draft") throw new AppError("conflict", "a draft has no participants yet: publish the competition first");
  const { queued } = await db.$transaction((tx) => announce(tx, competition, { kind: "post", title, body, authorId: user.id }));
  await deliver(queued);
  const [posted] = await listAnnouncements(competition.id, 1);
  return posted;
}

/** GET …/announcements: a competition's announcements, newest first (`limit` of them, when given). */
export async function listAnnouncements(competitionId: string, limit?: number): Promise<AnnouncementView[]> {
  const rows = await db.announcement.findMany({
    where: { competitionId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: limit,
    select: { id: true, kind: true, title: true, body: true, createdAt: true, author: { select: { name: true } } },
  });
  return rows.map((r) => ({ id: r.id, kind: r.kind as Kind, title: r.title, body: r.body, by: r.author?.name ?? null, createdAt: r.createdAt.toISOString() }));
}

/**
 * A day before each open competition's deadline, its reminder (the scheduler's tick): once per
 * deadline, so a deadline moved later is reminded of again a day before the new one. The slugs reminded.
 */
export async function remindDueCompetitions(now = new Date()): Promise<string[]> {
  const due = await db.competition.findMany({
    where: { status: "published", endsAt: { gt: now, lte: new Date(now.getTime() + REMIND_MS) } },
    select: { id: true, slug: true, title: true, endsAt: true },
  });
  const reminded: string[] = [];
  for (const competition of due) {
    const hours = Math.max(1, Math.round((competition.endsAt.getTime() - now.getTime()) / 3_600_000));
    const { created, queued } = await db.$transaction((tx) =>
      announce(tx, competition, {
        kind: "reminder",
        key: `reminder:${competition.endsAt.toISOString()}`,
        title: `Closing in ${hours} hour${hours === 1 ? "" : "s"}`,
        body: `Submissions close on ${formatUtc(competition.endsAt)} UTC. Your team may select up to 2 final submissions on its submissions page; without a selection, the submission the live board shows counts.`,
      }),
    );
    await deliver(queued);
    if (created) reminded.push(competition.slug);
  }
  return reminded;
}
