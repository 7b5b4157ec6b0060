import "server-only";
import { getMyTeam, mailTeam, membership, newInviteCode, teamByCode } from "./teams";
import type { PublicUser } from "@/lib/server/accounts/users";
import { requireRules } from "@/lib/server/competitions/access";
import { type CompetitionRow, metricOf, submissionsPossible } from "@/lib/server/competitions/competitions";
import { requireOpenCompetition } from "@/lib/server/competitions/lifecycle";
import { queueEvent } from "@/lib/server/competitions/webhooks";
import { db, isUniqueViolation, lockTeam, shareCompetition } from "@/lib/server/platform/db";
import { deliver } from "@/lib/server/platform/outbox";
import { AppError } from "@/lib/server/platform/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { type BoardKind, type BoardRow, mergeBoardRows } from "@/lib/mechanism/board";
import type { MergeRequestView, TeamView } from "@/lib/responses";
import { isUuid } from "@/lib/validation/ids";
import type { InviteCodeInput } from "@/lib/validation/teams";

// Merging two teams takes both: a team asks another to merge into it (POST …/teams/merge with the
// other's invite code), and one of the other team's members accepts, or declines; the team that
// asked may cancel. Only an accepted request merges, after every rule is checked again under both
// teams' row locks (docs/api.md, Teams and merges).

/** What a merge reads of each team, under its lock when it merges. */
type Side = {
  id: string;
  name: string;
  mergedIntoId: string | null;
  disqualifiedAt: Date | null;
  initialBudget: number;
  budgetRemaining: number;
  submissionCount: number;
  bestValue: number | null;
  bestKind: string | null;
  bestAt: Date | null;
  queryCount: number;
  absorbedQueries: number;
  holdoutAnswers: number;
  lastSubmissionAt: Date | null;
  members: number;
  /** members banned from the competition */
  banned: number;
  /** members who organize the competition or did (possible only for teams formed before organizing left its mark) */
  organizers: number;
  /** whether the team's own threshold epoch is open: a public answer came after its last holdout answer (lib/mechanism/accounting.ts) */
  epochOpen: boolean;
};

async function readSides(tx: Pick<Prisma.TransactionClient, "team" | "$queryRaw">, ids: [string, string]): Promise<[Side, Side]> {
  const rows = await tx.team.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      name: true,
      mergedIntoId: true,
      disqualifiedAt: true,
      initialBudget: true,
      budgetRemaining: true,
      submissionCount: true,
      bestValue: true,
      bestKind: true,
      bestAt: true,
      queryCount: true,
      absorbedQueries: true,
      holdoutAnswers: true,
      lastSubmissionAt: true,
      _count: { select: { members: true } },
    },
  });
  const extra = await tx.$queryRaw<{ id: string; banned: number; organizers: number; epochOpen: boolean }[]>`
    SELECT t.id,
      (SELECT count(*) FROM team_members m JOIN competition_bans b ON b.competition_id = m.competition_id AND b.user_id = m.user_id WHERE m.team_id = t.id)::int AS banned,
      (SELECT count(*) FROM team_members m JOIN competition_organizers o ON o.competition_id = m.competition_id AND o.user_id = m.user_id WHERE m.team_id = t.id)::int AS organizers,
      COALESCE((SELECT max(s.query_index) FROM submissions s WHERE s.stream_team_id = t.id AND s.kind = 'public'), 0)
        > COALESCE((SELECT max(s.query_index) FROM submissions s WHERE s.stream_team_id = t.id AND s.kind = 'holdout'), 0) AS "epochOpen"
    FROM teams t WHERE t.id = ANY(${ids}::uuid[])`;
  const side = (id: string): Side => {
    const { _count, ...row } = rows.find((r) => r.id === id)!;
    const { banned, organizers, epochOpen } = extra.find((e) => e.id === id)!;
    return { ...row, members: _count.members, banned, organizers, epochOpen };
  };
  return [side(ids[0]), side(ids[1])];
}

/**
 * Why `b` cannot merge into `a` at `now`, or null. The rules: both teams still playing, neither
 * disqualified, no member banned from the competition or marked as one of its organizers (present
 * or past: competitions/organizers.ts refuseOrganizer); the size limit; at most daily cap × the UTC
 * dates so far of the submissions the cap counts (transcriptLength) together; and what the guarantee was calibrated for (docs/mechanism.md §2.6,
 * §2.8): the merged team has learned what both learned, so its transcript holds both teams' queries,
 * at most m of them (transcriptLength), and together the two may have received at most B₀ holdout
 * answers, `b`'s open threshold epoch (a public answer since its last holdout answer: 8u of privacy
 * spent, lib/mechanism/accounting.ts) counting as one more, since the merged team carries on with
 * `a`'s threshold and `b`'s is abandoned. Checked when a merge is asked for, and again under both
 * teams' locks when it is accepted, with the access rules of every member (rulesProblem).
 */
function mergeProblem(competition: CompetitionRow, a: Side, b: Side, now: Date): AppError | null {
  const conflict = (message: string) => new AppError("conflict", message);
  if (a.mergedIntoId || b.mergedIntoId) return conflict("one of the teams was merged into another meanwhile");
  for (const team of [a, b]) {
    if (team.disqualifiedAt) return conflict(`team ${team.name} was disqualified by the organizers; it cannot merge`);
    if (team.banned > 0) return conflict(`a member of team ${team.name} is banned from this competition; the team cannot merge`);
    if (team.organizers > 0) return conflict(`a member of team ${team.name} organizes or organized this competition and saw its raw scores; the team cannot merge`);
  }
  if (a.members + b.members > competition.maxTeamSize) return conflict(`the merged team would have ${a.members + b.members} members; the limit is ${competition.maxTeamSize}`);
  const start = competition.startsAt ?? competition.publishedAt ?? competition.createdAt;
  const possible = submissionsPossible(competition.dailySubmissionLimit, start, now);
  const m = competition.maxQueries!;
  const [queriesA, queriesB] = [transcriptLength(a, m), transcriptLength(b, m)];
  const submissions = queriesA + queriesB;
  if (submissions > possible) {
    const dates = possible / competition.dailySubmissionLimit;
    return conflict(
      `the merged team would have ${submissions} scored submissions, more than one team could have made so far (the daily cap × ${dates} UTC ${dates === 1 ? "date" : "dates"}: ${competition.dailySubmissionLimit} × ${dates})`,
    );
  }
  if (budgetAfterMerge(a, b) < 0) {
    const [spentA, spentB, epoch] = [spent(a), spent(b), openEpoch(b)];
    const received = `the two teams received ${spentA} + ${spentB}`;
    const counted = epoch
      ? `${received} holdout answers, and team ${b.name}'s open threshold check counts as one more: ${spentA + spentB + 1}`
      : `${received} = ${spentA + spentB} holdout answers`;
    return conflict(`${counted}, more than the budget of ${a.initialBudget} one team may hold; they cannot merge`);
  }
  if (queriesA + queriesB > m) {
    return conflict(
      `the two teams made ${queriesA} + ${queriesB} = ${queriesA + queriesB} scored submissions, more than the ${m} this competition's guarantee covers for one team; they cannot merge`,
    );
  }
  return null;
}

/** What a member lacks, by the code of requireRules' refusal, in words that name no one. */
const LACKS: Record<string, string> = {
  domain_not_allowed: "an address at a domain this competition admits",
  email_unverified: "the verified address this competition asks for",
  identity_required: "the sign-in identity this competition asks for",
  approval_required: "the organizers' approval this competition asks for",
};

/**
 * 409 when a member of `a` or `b` does not meet the competition's access rules as they are now
 * (competitions/access.ts requireRules, the rule of joining and of submitting), else null. A merge
 * makes one new team for every member of both: the absorbed team's members join the other, and the
 * other's members gain the absorbed team's transcript and budget; so each of them must meet the
 * rules, as if joining now. Otherwise one who could no longer join or submit (a rule set after the
 * team was joined) would be let into a team that can, and hold its answers. `client` reads the
 * members under the teams' locks when a merge is accepted.
 */
async function rulesProblem(client: Pick<Prisma.TransactionClient, "teamMember">, competition: CompetitionRow, teams: Side[]): Promise<AppError | null> {
  for (const team of teams) {
    const members = await client.teamMember.findMany({ where: { teamId: team.id }, select: { user: { select: { id: true, email: true } } } });
    for (const { user } of members) {
      try {
        await requireRules(user, competition);
      } catch (error) {
        if (!(error instanceof AppError) || !LACKS[error.code]) throw error;
        return new AppError(
          "conflict",
          `a member of team ${team.name} lacks ${LACKS[error.code]}; every member of a merged team must meet its access rules, so the teams cannot merge`,
        );
      }
    }
  }
  return null;
}

/**
 * The queries in a team's transcript that the guarantee counts: its own and those it absorbed, at
 * most m (later ones were answered "limit"). These are also the submissions of its history that the
 * daily cap counted (daily-cap.ts usedTodaySql): the cap lets the "limit" answers through and does
 * not count them, so neither does the merge (submissionCount does, and a team that kept to the cap
 * could look as if it had not).
 */
function transcriptLength(team: Side, m: number): number {
  return Math.min(m, team.queryCount + team.absorbedQueries);
}

/** 1 when the team's threshold epoch is open (its last answer was public and it has budget left), else 0. */
function openEpoch(team: Side): number {
  return team.epochOpen ? 1 : 0;
}

/** The budget units a team has spent: its holdout answers (and, after a merge, what it absorbed). */
function spent(team: Side): number {
  return team.initialBudget - team.budgetRemaining;
}

/** What `a` keeps after absorbing `b`: B₀ minus what both spent, minus `b`'s open epoch (mergeProblem). */
function budgetAfterMerge(a: Side, b: Side): number {
  return a.initialBudget - spent(a) - spent(b) - openEpoch(b);
}

/**
 * POST …/teams/merge `{inviteCode}`: the caller's team asks the team with that code to merge into
 * it. Refused at once (409 naming the rule) when the merge could not be accepted now; otherwise a
 * pending request that the other team's members see in their GET …/team and are told of by mail.
 */
export async function requestMerge(user: PublicUser, slug: string, { inviteCode }: InviteCodeInput, now = new Date()): Promise<MergeRequestView & { status: string }> {
  const competition = await requireOpenCompetition(user, slug, now);
  const member = await membership(db, user.id, competition.id);
  if (!member) throw new AppError("conflict", "join or create a team first");
  const other = await teamByCode(db, competition.id, inviteCode);
  if (other.id === member.teamId) throw new AppError("conflict", "that is your own team's invite code");
  const [a, b] = await readSides(db, [member.teamId, other.id]);
  const problem = mergeProblem(competition, a, b, now) ?? (await rulesProblem(db, competition, [a, b]));
  if (problem) throw problem;
  let created;
  try {
    created = await db.mergeRequest.create({
      data: { competitionId: competition.id, fromTeamId: a.id, toTeamId: b.id, requestedById: user.id },
      select: { id: true, createdAt: true },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `your team has already asked team ${b.name} to merge; wait for its answer, or cancel the request`);
    throw error;
  }
  await mailTeam(b.id, {
    event: `merge-request:${created.id}`,
    kind: "merge_requests",
    slug: competition.slug,
    subject: `Team ${a.name} asks to merge with your team in ${competition.title}`,
    paragraphs: [
      `${user.name} of team ${a.name} asks your team ${b.name} to merge into theirs in ${competition.title}.`,
      `If one of you accepts, your members and submissions join team ${a.name}, the merged team keeps what is left of both budgets, and your invite code stops working. Accept or decline on the competition's page; nothing changes until then.`,
    ],
  });
  return { id: created.id, team: b.name, teamId: b.id, requestedBy: user.name, createdAt: created.createdAt.toISOString(), status: "pending" };
}

/** The pending request `id` of this competition whose `side` team is the caller's; 404 otherwise (another team's requests are not revealed). */
async function requestOfMyTeam(user: PublicUser, competitionId: string, id: string, side: "fromTeamId" | "toTeamId") {
  const notFound = new AppError("not_found", "no such merge request for your team");
  if (!isUuid(id)) throw notFound;
  const [member, request] = await Promise.all([
    membership(db, user.id, competitionId),
    db.mergeRequest.findFirst({ where: { id, competitionId }, select: { id: true, fromTeamId: true, toTeamId: true, status: true, requestedById: true } }),
  ]);
  if (!request || !member || request[side] !== member.teamId) throw notFound;
  if (request.status !== "pending") throw new AppError("conflict", `this merge request was ${request.status} already`);
  return request;
}

/**
 * POST …/teams/merge-requests/{id}/accept (a member of the team asked): merges that team into the
 * team that asked. Under a key-share lock on the competition (closing waits for it; the order
 * scoring takes) and both teams' row locks (in id order), the request must still be pending and
 * every rule of `mergeProblem` is checked again. The merged team keeps both teams' members and
 * submissions, the better leaderboard row (by the answers that selected them) and B₀ minus what
 * both spent; its transcript counts the absorbed team's queries and holdout answers too, and the
 * shown answer's place in it (both teams' submissions in time order) is counted again for its bound.
 * It gets a new invite code, the absorbed team's code is dead, and the absorbed team's other
 * pending requests are cancelled. The competition's webhooks hear of it (`team.merged`, queued in
 * the merge's transaction: both teams' ids and names and the merged team's members, no score).
 * Answers the caller's team as it is now.
 */
export async function acceptMerge(user: PublicUser, slug: string, id: string, now = new Date()): Promise<TeamView> {
  const competition = await requireOpenCompetition(user, slug, now);
  const request = await requestOfMyTeam(user, competition.id, id, "toTeamId");
  const { names, events } = await db.$transaction(async (tx) => {
    if ((await shareCompetition(tx, competition.id)) !== "published") throw new AppError("conflict", "this competition has closed");
    for (const teamId of [request.fromTeamId, request.toTeamId].sort()) await lockTeam(tx, teamId);
    const decided = await tx.mergeRequest.updateMany({ where: { id, status: "pending" }, data: { status: "accepted", decidedAt: now, decidedById: user.id } });
    if (decided.count === 0) throw new AppError("conflict", "this merge request was answered or cancelled meanwhile");
    if ((await membership(tx, user.id, competition.id))?.teamId !== request.toTeamId) throw new AppError("conflict", "you left the team meanwhile");
    const [a, b] = await readSides(tx, [request.fromTeamId, request.toTeamId]);
    const problem = mergeProblem(competition, a, b, now) ?? (await rulesProblem(tx, competition, [a, b]));
    if (problem) throw problem;
    const rowOf = (t: Side): BoardRow | null => (t.bestValue === null ? null : { value: t.bestValue, kind: t.bestKind as BoardKind, at: t.bestAt! });
    const best = mergeBoardRows(rowOf(a), rowOf(b), metricOf(competition).direction);
    await tx.teamMember.updateMany({ where: { teamId: b.id }, data: { teamId: a.id } });
    await tx.submission.updateMany({ where: { teamId: b.id }, data: { teamId: a.id } });
    await tx.team.update({
      where: { id: a.id },
      data: {
        budgetRemaining: budgetAfterMerge(a, b),
        submissionCount: a.submissionCount + b.submissionCount,
        bestValue: best?.value ?? null,
        bestKind: best?.kind ?? null,
        bestAt: best?.at ?? null,
        absorbedQueries: a.absorbedQueries + b.queryCount + b.absorbedQueries,
        holdoutAnswers: a.holdoutAnswers + b.holdoutAnswers,
        lastSubmissionAt: [a.lastSubmissionAt, b.lastSubmissionAt].filter((t) => t !== null).sort((x, y) => y.getTime() - x.getTime())[0] ?? null,
        // Whoever had the old code (the absorbed team's members included) must ask for the new one.
        inviteCode: newInviteCode(),
      },
    });
    await tx.team.update({ where: { id: b.id }, data: { mergedIntoId: a.id, budgetRemaining: 0 } });
    // The shown answer's position in the merged transcript (both teams' submissions in time order;
    // a tie in time counts before it, which only widens its bound) and the holdout answers before it.
    await tx.$executeRaw`
      UPDATE teams t SET
        best_position = (SELECT count(*) FROM submissions s WHERE s.team_id = t.id AND s.created_at <= t.best_at),
        best_prior = (SELECT count(*) FROM submissions s WHERE s.team_id = t.id AND s.kind = 'holdout' AND s.created_at < t.best_at)
      WHERE t.id = ${a.id}::uuid AND t.best_at IS NOT NULL`;
    await tx.mergeRequest.updateMany({ where: { status: "pending", OR: [{ fromTeamId: b.id }, { toTeamId: b.id }] }, data: { status: "cancelled", decidedAt: now } });
    const events = await queueEvent(tx, competition, {
      type: "team.merged",
      id: request.id,
      at: now,
      data: { team: { id: a.id, name: a.name }, merged: { id: b.id, name: b.name }, members: a.members + b.members },
    });
    return { names: { a: a.name, b: b.name }, events };
  });
  await deliver(events);
  await mailTeam(request.fromTeamId, {
    event: `merge-accepted:${request.id}`,
    kind: "merge_requests",
    slug: competition.slug,
    subject: `Team ${names.b} merged into your team in ${competition.title}`,
    paragraphs: [`${user.name} of team ${names.b} accepted your team's request: its members and submissions are now part of team ${names.a}. Your team has a new invite code.`],
  });
  return (await getMyTeam(user, slug))!;
}

/** POST …/teams/merge-requests/{id}/decline (a member of the team asked): the request is refused; the team that asked is told. */
export async function declineMerge(user: PublicUser, slug: string, id: string): Promise<{ id: string; status: string }> {
  const competition = await requireOpenCompetition(user, slug);
  const request = await requestOfMyTeam(user, competition.id, id, "toTeamId");
  await closeRequest(request.id, "declined", user);
  const asked = await db.team.findUniqueOrThrow({ where: { id: request.toTeamId }, select: { name: true } });
  await mailTeam(request.fromTeamId, {
    event: `merge-declined:${request.id}`,
    kind: "merge_requests",
    slug: competition.slug,
    subject: `Team ${asked.name} declined to merge in ${competition.title}`,
    paragraphs: [`${user.name} of team ${asked.name} declined your team's request to merge. Nothing changed.`],
  });
  return { id: request.id, status: "declined" };
}

/** POST …/teams/merge-requests/{id}/cancel (a member of the team that asked): the request is withdrawn. */
export async function cancelMerge(user: PublicUser, slug: string, id: string): Promise<{ id: string; status: string }> {
  const competition = await requireOpenCompetition(user, slug);
  const request = await requestOfMyTeam(user, competition.id, id, "fromTeamId");
  await closeRequest(request.id, "cancelled", user);
  return { id: request.id, status: "cancelled" };
}

/** Ends a pending request without merging; 409 when it was answered meanwhile. */
async function closeRequest(id: string, status: "declined" | "cancelled", user: PublicUser): Promise<void> {
  const { count } = await db.mergeRequest.updateMany({ where: { id, status: "pending" }, data: { status, decidedAt: new Date(), decidedById: user.id } });
  if (count === 0) throw new AppError("conflict", "this merge request was answered or cancelled meanwhile");
}
