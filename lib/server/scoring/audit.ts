import "server-only";
import { db } from "@/lib/server/platform/db";
import { requireOrganizer, thresholdoutParams } from "@/lib/server/competitions/competitions";
import { loadSolution, shapesOf } from "@/lib/server/competitions/solutions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { epsPerHoldoutAnswer, privacySpent, type TeamReleases } from "@/lib/mechanism/accounting";
import { createReplay, type ReplayedQuery } from "@/lib/mechanism/replay";
import type { AuditReport, HealthReport } from "@/lib/responses";

/**
 * Replays every answer from the stored secret (docs/mechanism.md §5; lib/mechanism/replay.ts), the
 * submissions read in pages in order of stream and query index.
 */
export async function auditCompetition(user: PublicUser, slug: string): Promise<AuditReport> {
  const competition = await requireOrganizer(user, slug);
  if (competition.budget === null) return { queries: 0, mismatches: 0, examples: [] };
  const { secret } = await db.competition.findUniqueOrThrow({ where: { id: competition.id }, select: { secret: true } });
  const solution = await loadSolution(competition.id, { published: competition.status !== "draft" });
  const replay = createReplay(thresholdoutParams(competition, shapesOf(competition, solution!).holdout), secret);
  let cursor: { streamTeamId: string; queryIndex: number } | null = null;
  for (;;) {
    const batch: ReplayedQuery[] = await db.submission.findMany({
      where: {
        competitionId: competition.id,
        ...(cursor ? { OR: [{ streamTeamId: { gt: cursor.streamTeamId } }, { streamTeamId: cursor.streamTeamId, queryIndex: { gt: cursor.queryIndex } }] } : {}),
      },
      orderBy: [{ streamTeamId: "asc" }, { queryIndex: "asc" }],
      take: 10_000,
      select: {
        id: true,
        streamTeamId: true,
        queryIndex: true,
        position: true,
        kind: true,
        answer: true,
        budgetBefore: true,
        budgetAfter: true,
        publicValue: true,
        holdoutValue: true,
      },
    });
    if (batch.length === 0) break;
    for (const s of batch) replay.add(s);
    const last = batch[batch.length - 1];
    cursor = { streamTeamId: last.streamTeamId, queryIndex: last.queryIndex };
  }
  return replay.report;
}

/**
 * The holdout's health (docs/mechanism.md §2.6, "count every release"): the DP privacy each team has
 * spent (accounting.ts: its holdout answers and the open threshold epoch of each of its streams, an
 * absorbed team's too), the total over teams (basic composition: every team queries the same
 * holdout), and the teams that exhausted their budget.
 */
export async function holdoutHealth(user: PublicUser, slug: string): Promise<HealthReport> {
  const competition = await requireOrganizer(user, slug);
  const solution = competition.sigma === null ? null : await loadSolution(competition.id, { published: competition.status !== "draft" });
  if (!solution || competition.sigma === null) return { perHoldoutAnswer: 0, total: 0, teams: [], exhausted: 0 };
  // Per stream (a team and the teams it absorbed keep their own streams): its holdout answers, and
  // whether its current threshold epoch is open — a public answer came after its last holdout answer.
  const teams = await db.$queryRaw<{ id: string; name: string; initial_budget: number; budget_remaining: number; holdout_answers: number; open_epochs: number }[]>`
    WITH streams AS (
      SELECT s.team_id, s.stream_team_id, count(*) FILTER (WHERE s.kind = 'holdout')::int AS holdout_answers,
             COALESCE(max(s.query_index) FILTER (WHERE s.kind = 'public'), 0) > COALESCE(max(s.query_index) FILTER (WHERE s.kind = 'holdout'), 0) AS open
      FROM submissions s WHERE s.competition_id = ${competition.id}::uuid GROUP BY s.team_id, s.stream_team_id)
    SELECT t.id, t.name, t.initial_budget, t.budget_remaining,
           COALESCE(sum(st.holdout_answers), 0)::int AS holdout_answers, count(*) FILTER (WHERE st.open)::int AS open_epochs
    FROM teams t LEFT JOIN streams st ON st.team_id = t.id
    WHERE t.competition_id = ${competition.id}::uuid AND t.merged_into_id IS NULL GROUP BY t.id ORDER BY t.name`;
  const releases = new Map<string, TeamReleases>(teams.map((t) => [t.id, { holdoutAnswers: t.holdout_answers, openEpochs: t.open_epochs }]));
  const { sensitivity } = shapesOf(competition, solution).holdout;
  const spent = privacySpent(releases, competition.sigma, sensitivity);
  const rows = teams.map((t) => {
    const r = releases.get(t.id)!;
    return { name: t.name, ...r, epsDp: spent.perTeam.get(t.id)!, remaining: t.budget_remaining, initial: t.initial_budget, exhausted: t.budget_remaining === 0 };
  });
  return {
    perHoldoutAnswer: epsPerHoldoutAnswer(competition.sigma, sensitivity),
    total: spent.total,
    teams: rows,
    exhausted: rows.filter((r) => r.exhausted).length,
  };
}
