import "server-only";
import { db, lockCompetition } from "./db";
import { AppError } from "./errors";
import { COMPETITION_SELECT, type CompetitionRow, correlationOf, getVisibleCompetition, mechanismOf, metricOf, requireOrganizer } from "./competitions";
import { liveOrder } from "./leaderboard";
import { appLink, message, sendMail } from "./mail";
import { planOn } from "./plans";
import { getSolutionSummary, loadSolution } from "./solutions";
import type { PublicUser } from "./users";
import { splitIntegrityProblem } from "@/lib/calibration/resolve";
import { isBetter, type Metric } from "@/lib/metrics/registry";
import type { Prisma } from "@/lib/generated/prisma/client";

// A competition's life: draft → published → closed (docs/ARCHITECTURE.md, "A competition's life").
// This module owns the rules that pages and services ask about: what a draft may change, when a
// competition takes entries, publishing, and closing (by an organizer or at the deadline).

// Draft

/** Draft-only changes; 409 once published (the solution and mechanism are locked). */
export function requireDraft(competition: CompetitionRow, what: string): void {
  if (competition.status !== "draft") throw new AppError("conflict", `${what} cannot change once the competition is published`);
}

/** `requireDraft` under the competition's row lock, so a change cannot land after a publish that ran meanwhile. */
export async function lockDraft(tx: Prisma.TransactionClient, competitionId: string, what: string): Promise<void> {
  if ((await lockCompetition(tx, competitionId)) !== "draft") throw new AppError("conflict", `${what} cannot change once the competition is published`);
}

// Published: taking entries

/** A published competition that is open for taking part right now; 409 otherwise. */
export async function requireOpenCompetition(user: PublicUser | null, slug: string, now = new Date()): Promise<CompetitionRow> {
  const competition = await getVisibleCompetition(user, slug);
  checkOpen(competition, now);
  return competition;
}

/**
 * Why the competition does not take entries (teams, submissions) at `now`, or null when it does:
 * published, started and before its deadline. The one home of that rule: pages ask it, services
 * enforce it (checkOpen).
 */
export function closedForEntries(competition: Pick<CompetitionRow, "status" | "startsAt" | "endsAt">, now: Date): string | null {
  if (competition.status === "draft") return "this competition is not published yet";
  if (competition.status === "closed" || now >= competition.endsAt) return "this competition has closed";
  if (competition.startsAt && now < competition.startsAt) return `this competition opens on ${competition.startsAt.toISOString()}`;
  return null;
}

/** 409 unless the competition takes entries at `now` (closedForEntries). */
export function checkOpen(competition: CompetitionRow, now: Date): void {
  const problem = closedForEntries(competition, now);
  if (problem) throw new AppError("conflict", problem);
}

// Publishing

/**
 * Publishes a draft: needs a solution whose split keeps correlated rows together (under the groups
 * and Markov models) and mechanism settings whose budget is at least 1; the plan is recomputed from
 * the stored settings so σ, T, B₀ and m match the final solution and the publishing date. Competitors
 * may join from then on; the solution, correlation and mechanism are locked.
 */
export async function publishCompetition(user: PublicUser, slug: string): Promise<CompetitionRow> {
  const competition = await requireOrganizer(user, slug);
  if (competition.status !== "draft") throw new AppError("conflict", `the competition is already ${competition.status}`);
  if (competition.endsAt <= new Date()) throw new AppError("conflict", "the end date has passed; move it to the future before publishing");
  const mechanism = mechanismOf(competition);
  if (!mechanism) throw new AppError("conflict", "configure the mechanism before publishing");
  const now = new Date();
  const solution = await loadSolution(competition.id);
  const summary = await getSolutionSummary(competition.id);
  if (!solution || !summary) throw new AppError("conflict", "upload the solution before publishing");
  const crossing = splitIntegrityProblem(correlationOf(competition).kind, solution);
  if (crossing) throw new AppError("conflict", `the split cuts correlated rows: ${crossing}`);
  const live = { ...competition, publishedAt: now };
  const { plan } = await planOn(live, mechanism);
  if (plan.budget < 1) throw new AppError("conflict", "the mechanism's budget is 0: no team could get a holdout answer; loosen the tolerance or use practical mode");
  // Under the row lock: still a draft, and the solution and settings planned on are the stored ones.
  return db.$transaction(async (tx) => {
    if ((await lockCompetition(tx, competition.id)) !== "draft") throw new AppError("conflict", "the competition was published meanwhile");
    const current = await tx.competition.findUniqueOrThrow({
      where: { id: competition.id },
      select: { mechanism: true, correlation: true, endsAt: true, solution: { select: { sha256: true } } },
    });
    const unchanged =
      current.solution?.sha256 === summary.sha256 &&
      JSON.stringify([current.mechanism, current.correlation, current.endsAt]) === JSON.stringify([competition.mechanism, competition.correlation, competition.endsAt]);
    if (!unchanged) throw new AppError("conflict", "the competition's settings changed while it was being published; publish again");
    return tx.competition.update({
      where: { id: competition.id },
      data: { status: "published", publishedAt: now, sigma: plan.sigma, threshold: plan.threshold, budget: plan.budget, maxQueries: plan.guarantee.maxQueries },
      select: COMPETITION_SELECT,
    });
  });
}

// Closing

/**
 * The submissions that count for the final standings: the team's selection (up to 2), or by
 * default its best answered submission (earliest among equals).
 */
export function finalSubmissionIds(metric: Metric, rows: { id: string; createdAt: Date; answer: number | null; selected: boolean }[]): string[] {
  const selected = rows.filter((r) => r.selected).map((r) => r.id);
  if (selected.length) return selected;
  let best: (typeof rows)[number] | null = null;
  for (const r of rows) {
    if (r.answer === null) continue;
    if (!best || isBetter(metric, r.answer, best.answer!) || (r.answer === best.answer && r.createdAt < best.createdAt)) best = r;
  }
  return best ? [best.id] : [];
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
 * Closes every published competition whose end has come (lib/server/scheduler.ts runs it every
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
 * (closed meanwhile, by another instance or an organizer). The teams' members are told by mail.
 */
async function closeNow(competition: CompetitionRow): Promise<CompetitionRow | null> {
  const metric = metricOf(competition);
  const closed = await db.$transaction(
    async (tx) => {
      // Every scoring holds FOR KEY SHARE on the competition row until it commits (submissions.ts):
      // this lock waits for those in flight, and later ones wait for it and then find the
      // competition closed, so no answer lands after the final standings.
      if ((await lockCompetition(tx, competition.id)) !== "published") return null;
      const ranked = await tx.$queryRaw<{ id: string; rank: bigint }[]>`
        SELECT id, row_number() OVER (ORDER BY ${liveOrder(metric)}) AS rank FROM teams
        WHERE competition_id = ${competition.id}::uuid AND merged_into_id IS NULL AND disqualified_at IS NULL AND submission_count > 0`;
      const liveRank = new Map(ranked.map((r) => [r.id, Number(r.rank)]));
      const submissions = await tx.submission.findMany({
        where: { competitionId: competition.id, team: { disqualifiedAt: null } },
        select: { id: true, teamId: true, createdAt: true, answer: true, selected: true, holdoutValue: true },
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
        await tx.$executeRaw`UPDATE teams AS t SET final_score = v.score, final_rank = v.rank, live_rank = v.live
          FROM unnest(${finals.map((f) => f.teamId)}::uuid[], ${finals.map((f) => f.score)}::float8[], ${finals.map((_, i) => i + 1)}::int[], ${finals.map((f) => liveRank.get(f.teamId) ?? null)}::int[]) AS v(id, score, rank, live)
          WHERE t.id = v.id`;
      }
      return tx.competition.update({ where: { id: competition.id }, data: { status: "closed", closedAt: new Date() }, select: COMPETITION_SELECT });
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  if (closed) await announceFinalStandings(closed);
  return closed;
}

/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, …, 21st. */
function ordinal(n: number): string {
  const suffixes = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return `${n}${suffixes[(v - 20) % 10] ?? suffixes[v] ?? suffixes[0]}`;
}

/** Mails every member of every team: the final standings are out. */
async function announceFinalStandings(competition: CompetitionRow): Promise<void> {
  const members = await db.teamMember.findMany({
    where: { competitionId: competition.id },
    select: { user: { select: { email: true, name: true } }, team: { select: { name: true, finalRank: true } } },
  });
  for (const m of members) {
    await sendMail(
      message({
        to: m.user.email,
        subject: `Final standings of ${competition.title}`,
        name: m.user.name,
        paragraphs: [
          `${competition.title} has closed and its final standings are out: each team's final submissions scored exactly on the holdout.`,
          m.team.finalRank ? `Your team ${m.team.name} finished ${ordinal(m.team.finalRank)}.` : `Your team ${m.team.name} had no answered submission, so it is not ranked.`,
        ],
        action: { label: "See the final standings", url: appLink(`/competitions/${competition.slug}/leaderboard`) },
      }),
    );
  }
}
