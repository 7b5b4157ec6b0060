import "server-only";
import { scoreDecimals } from "@/lib/metrics/display";
import { liveOrder, ON_BOARD } from "@/lib/server/boards/ranking";
import { COMPETITION_SELECT, type CompetitionRow, getVisibleCompetition, metricOf, requireOrganizer } from "@/lib/server/competitions/competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { db, lockCompetition } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { appLink, message } from "@/lib/server/platform/mail";
import { deliver, type Outgoing, queueMails } from "@/lib/server/platform/outbox";
import type { Prisma } from "@/lib/generated/prisma/client";
import { type BoardAnswer, boardSubmission } from "@/lib/mechanism/board";
import { isBetter, type Metric } from "@/lib/metrics/registry";
import type { FinalStandings } from "@/lib/responses";
import { solutionCache } from "@/lib/server/competitions/solution-cache";
import { csvLines } from "@/lib/csv/writer";
import { getScoreBounds } from "@/lib/server/competitions/plans";
import { announce, closedNotice } from "@/lib/server/competitions/announcements";
import { queueEvent } from "@/lib/server/competitions/webhooks";
import type { ScoreBoundSetting } from "@/lib/calibration/score-bounds";
import { finalInterval, tiedWith } from "@/lib/calibration/finals";

// The final standings: which submissions count (a team's selection, or its best by default), the
// close that scores them exactly on the holdout (by an organizer, or at the deadline through
// scheduler.ts), and the standings as they are read afterwards.

/**
 * The submissions that count for the final standings: the team's selection (up to 2), or by default
 * the submission the live board shows for it (lib/mechanism/board.ts: its best public answer, else its
 * latest holdout answer; Kaggle's default is the best public score), not its luckiest noisy answer.
 */
export function finalSubmissionIds(metric: Metric, rows: { id: string; createdAt: Date; kind: string; answer: number | null; selected: boolean }[]): string[] {
  const selected = rows.filter((r) => r.selected).map((r) => r.id);
  if (selected.length) return selected;
  const id = boardSubmission(
    rows.map((r) => ({ id: r.id, kind: r.kind as BoardAnswer["kind"], value: r.answer, at: r.createdAt })),
    metric.direction,
  );
  return id === null ? [] : [id];
}

/** POST …/close: an organizer closes a published competition early (closeNow). */
export async function closeCompetition(user: PublicUser, slug: string): Promise<CompetitionRow> {
  const competition = await requireOrganizer(user, slug);
  const closed = await closeNow(competition);
  if (!closed)
    throw new AppError(
      "conflict",
      `only a published competition can be closed; this one is ${(await db.competition.findUniqueOrThrow({ where: { id: competition.id }, select: { status: true } })).status}`,
    );
  return closed;
}

/**
 * Closes every published competition whose end has come (lib/server/closing/scheduler.ts runs it every
 * half minute on every app instance); each is closed exactly once, by whichever instance locks
 * it first. Returns the slugs this call closed.
 */
export async function closeDueCompetitions(now = new Date()): Promise<string[]> {
  const due = await db.competition.findMany({ where: { status: "published", endsAt: { lte: now } }, select: COMPETITION_SELECT });
  const closed: string[] = [];
  for (const competition of due) if (await closeNow(competition)) closed.push(competition.slug);
  return closed;
}

/**
 * Closes a published competition and computes the final standings once: each team's final
 * submissions (its selection, or by default its best answered one) scored exactly on the holdout,
 * the best of them counting; ties go to the earlier submission. The live rank is kept beside it
 * for the shake-up. Null when the competition was not published any more once its row was locked
 * (closed meanwhile, by another instance or an organizer). The close is announced on the Overview
 * (competitions/announcements.ts), sent to the competition's webhooks (`competition.closed`), and
 * the teams' members are told by mail,
 * queued in the outbox in the close's own transaction (none is lost if the SMTP server is down, or
 * this process ends, right after the close) and sent once it has committed; then this instance lets
 * the decoded solution go (competitions/solution-cache.ts) unless late submissions will need it.
 */
async function closeNow(competition: CompetitionRow): Promise<CompetitionRow | null> {
  const metric = metricOf(competition);
  // The bounds depend on the settings alone, which the close does not change: computed before the competition's row is locked.
  const bounds = await getScoreBounds(competition);
  const outcome = await db.$transaction(
    async (tx) => {
      // Every scoring holds FOR KEY SHARE on the competition row until it commits (scoring/transaction.ts):
      // this lock waits for those in flight, and later ones wait for it and then find the
      // competition closed, so no answer lands after the final standings.
      if ((await lockCompetition(tx, competition.id)) !== "published") return null;
      const ranked = await tx.$queryRaw<{ id: string; rank: bigint }[]>`
        SELECT id, row_number() OVER (ORDER BY ${liveOrder(metric)}) AS rank FROM teams
        WHERE competition_id = ${competition.id}::uuid AND ${ON_BOARD}`;
      const liveRank = new Map(ranked.map((r) => [r.id, Number(r.rank)]));
      const submissions = await tx.submission.findMany({
        where: { competitionId: competition.id, team: { disqualifiedAt: null } },
        select: { id: true, teamId: true, createdAt: true, kind: true, answer: true, selected: true, holdoutValue: true },
      });
      const byTeam = new Map<string, typeof submissions>();
      for (const s of submissions) byTeam.set(s.teamId, [...(byTeam.get(s.teamId) ?? []), s]);
      const finals: { teamId: string; score: number; at: Date }[] = [];
      for (const [teamId, rows] of byTeam) {
        const ids = new Set(finalSubmissionIds(metric, rows));
        let best: { score: number; at: Date } | null = null;
        for (const r of rows) {
          if (!ids.has(r.id)) continue;
          if (!best || isBetter(metric, r.holdoutValue, best.score) || (r.holdoutValue === best.score && r.createdAt < best.at)) best = { score: r.holdoutValue, at: r.createdAt };
        }
        if (best) finals.push({ teamId, ...best });
      }
      finals.sort((a, b) => (a.score === b.score ? a.at.getTime() - b.at.getTime() : isBetter(metric, a.score, b.score) ? -1 : 1));
      if (finals.length) {
        await tx.$executeRaw`UPDATE teams AS t SET final_value = v.score, final_rank = v.rank, live_rank = v.live
          FROM unnest(${finals.map((f) => f.teamId)}::uuid[], ${finals.map((f) => f.score)}::float8[], ${finals.map((_, i) => i + 1)}::int[], ${finals.map((f) => liveRank.get(f.teamId) ?? null)}::int[]) AS v(id, score, rank, live)
          WHERE t.id = v.id`;
      }
      const closed = await tx.competition.update({ where: { id: competition.id }, data: { status: "closed", closedAt: new Date() }, select: COMPETITION_SELECT });
      await announce(tx, closed, closedNotice(closed.closedAt!));
      const events = await queueEvent(tx, closed, {
        type: "competition.closed",
        id: closed.id,
        at: closed.closedAt!,
        data: { closedAt: closed.closedAt!.toISOString(), teams: finals.length, finalStandings: appLink(`/api/v1/competitions/${closed.slug}/final`) },
      });
      return { closed, mails: [...(await queueMails(tx, await finalStandingsMails(tx, closed, bounds))), ...events] };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  if (!outcome) return null;
  await deliver(outcome.mails);
  // Scoring is done with the solution, unless late submissions come. The standings' bounds read it
  // too (plans.ts getScoreBounds, here before the close and on a view of the board): decoded again
  // then, within the cache's budget.
  if (!outcome.closed.lateSubmissions) solutionCache.forget(outcome.closed.id);
  return outcome.closed;
}

/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, …, 21st. */
function ordinal(n: number): string {
  const suffixes = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return `${n}${suffixes[(v - 20) % 10] ?? suffixes[v] ?? suffixes[0]}`;
}

/** A mail to every member of every team (read through the close's transaction): the final standings are out, with the team's place and the teams it is tied with. */
async function finalStandingsMails(tx: Prisma.TransactionClient, competition: CompetitionRow, bounds: ScoreBoundSetting | null): Promise<Outgoing[]> {
  const members = await tx.teamMember.findMany({
    where: { competitionId: competition.id },
    select: { user: { select: { id: true, email: true, name: true } }, team: { select: { id: true, name: true } } },
  });
  const entries = await finalEntries(competition, tx, bounds);
  const byId = new Map(entries.map((e) => [e.teamId, e]));
  return members.map((m) => {
    const entry = byId.get(m.team.id);
    const tied = entry?.tiedWith.map((id) => byId.get(id)!.team) ?? [];
    return {
      key: `closed:${competition.id}:${m.user.id}`,
      kind: "results" as const,
      userId: m.user.id,
      mail: message({
        to: m.user.email,
        subject: `Final standings of ${competition.title}`,
        name: m.user.name,
        paragraphs: [
          `${competition.title} has closed and its final standings are out: each team's final submissions scored exactly on the holdout.`,
          entry
            ? `Your team ${m.team.name} finished ${ordinal(entry.rank)}${tied.length ? `, tied with ${listed(tied)}: your scores' intervals overlap, so no proof tells your order apart` : ""}.`
            : `Your team ${m.team.name} had no answered submission, so it is not ranked.`,
        ],
        action: { label: "See the final standings", url: appLink(`/competitions/${competition.slug}/leaderboard`) },
      }),
    };
  });
}

/** "A", "A and B", "A, B and C". */
function listed(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The final standings of a closed competition (docs/api.md, GET …/final); 409 before it closes. */
export async function getFinalStandings(viewer: PublicUser | null, slug: string): Promise<FinalStandings> {
  const competition = await getVisibleCompetition(viewer, slug);
  if (competition.status !== "closed") throw new AppError("conflict", "the final standings are revealed when the competition closes");
  const metric = metricOf(competition);
  return {
    metric: { name: metric.name, title: metric.title, direction: metric.direction },
    displayPrecision: competition.displayPrecision,
    entries: await finalEntries(competition),
  };
}

/** GET …/final?format=csv: the final standings as CSV, the tied teams by name. */
export async function finalStandingsCsv(viewer: PublicUser | null, slug: string): Promise<string> {
  const { entries } = await getFinalStandings(viewer, slug);
  const name = new Map(entries.map((e) => [e.teamId, e.team]));
  // Each number as the pages show it: to the decimals its bound supports (lib/metrics/display.ts).
  return csvLines([
    ["rank", "team", "score", "bound", "tied_with", "live_rank", "shake_up"],
    ...entries.map((e) => [
      e.rank,
      e.team,
      e.score.toFixed(e.decimals),
      e.bound === null ? null : e.bound.toFixed(e.decimals),
      e.tiedWith.map((id) => name.get(id)).join("; "),
      e.liveRank,
      e.shakeUp,
    ]),
  ]);
}

/**
 * The final standings' entries (docs/mechanism.md §2.9): each team's exact final score with the bound
 * that holds under the whole competition's adaptivity (lib/calibration/finals.ts: the competition-wide
 * count at its teams and holdout answers; null where no inequality covers the metric and model), the
 * teams whose intervals overlap it (`tiedWith`: no proof tells their order apart), its live rank and
 * the shake-up. A team disqualified after the close leaves them; the ones below move up.
 */
async function finalEntries(
  competition: CompetitionRow,
  client: Pick<Prisma.TransactionClient, "team"> = db,
  scoreBounds?: ScoreBoundSetting | null,
): Promise<FinalStandings["entries"]> {
  const metric = metricOf(competition);
  const [teams, players, bounds] = await Promise.all([
    client.team.findMany({
      where: { competitionId: competition.id, finalRank: { not: null }, disqualifiedAt: null },
      orderBy: { finalRank: "asc" },
      select: { id: true, name: true, finalValue: true, finalRank: true, liveRank: true },
    }),
    client.team.count({ where: { competitionId: competition.id, mergedIntoId: null, submissionCount: { gt: 0 } } }),
    scoreBounds === undefined ? getScoreBounds(competition) : scoreBounds,
  ]);
  const input = bounds && {
    concentration: bounds.concentration,
    teams: Math.max(1, players),
    maxQueries: bounds.maxQueries,
    holdoutAnswers: competition.holdoutAnswers,
    decimals: bounds.decimals,
    beta: bounds.beta,
  };
  const intervals = teams.map((t) => ({ id: t.id, value: t.finalValue!, ...(input ? finalInterval(input, t.finalValue!) : { lower: t.finalValue!, upper: t.finalValue! }) }));
  const ties = input ? tiedWith(intervals) : new Map<string, string[]>();
  return teams.map((t, i) => {
    const { value, lower, upper } = intervals[i];
    const shown = metric.toDisplay(value);
    const bound = input ? Math.max(metric.toDisplay(upper) - shown, shown - metric.toDisplay(lower)) : null;
    return {
      rank: i + 1,
      team: t.name,
      teamId: t.id,
      score: shown,
      bound,
      decimals: scoreDecimals(bound, competition.displayPrecision),
      tiedWith: ties.get(t.id) ?? [],
      liveRank: t.liveRank,
      shakeUp: t.liveRank === null ? null : t.liveRank - (i + 1),
    };
  });
}
