import "server-only";
import { db } from "@/lib/server/platform/db";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { thresholdoutParams } from "@/lib/server/competitions/competitions";
import { epsPerHoldoutAnswer, privacySpent, type TeamReleases } from "@/lib/mechanism/accounting";
import { createStreams } from "@/lib/mechanism/rng";
import { initThresholdout, remeasureHoldout, stepThresholdout } from "@/lib/mechanism/thresholdout";
import type { HealthReport } from "@/lib/responses";

export type AuditReport = { queries: number; mismatches: number; examples: { submissionId: string; problem: string }[] };

/**
 * Replays every answer from the stored secret (docs/mechanism.md §5): for each team's stream, query
 * by query, Algorithm 1 is stepped again on the stored raw scores with the budget the team had, and
 * the kind, the released value, the budget after and any re-measured leaderboard value must match
 * exactly; query indices must run 1, 2, 3, … with none reused or skipped.
 */
export async function auditCompetition(user: PublicUser, slug: string): Promise<AuditReport> {
  const competition = await requireOrganizer(user, slug);
  const report: AuditReport = { queries: 0, mismatches: 0, examples: [] };
  if (competition.budget === null) return report;
  const { secret, solution } = await db.competition.findUniqueOrThrow({ where: { id: competition.id }, select: { secret: true, solution: { select: { holdoutRows: true } } } });
  const params = thresholdoutParams(competition, solution!.holdoutRows);
  const mismatch = (submissionId: string, problem: string) => {
    report.mismatches++;
    if (report.examples.length < 10) report.examples.push({ submissionId, problem });
  };
  let cursor: { streamTeamId: string; queryIndex: number } | null = null;
  let stream: { team: string; threshold: number; next: number; streams: ReturnType<typeof createStreams> } | null = null;
  for (;;) {
    const batch: {
      id: string;
      streamTeamId: string;
      queryIndex: number;
      kind: string;
      answer: number | null;
      budgetBefore: number;
      budgetAfter: number;
      remeasure: number | null;
      publicValue: number;
      holdoutValue: number;
    }[] = await db.submission.findMany({
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
        kind: true,
        answer: true,
        budgetBefore: true,
        budgetAfter: true,
        remeasure: true,
        publicValue: true,
        holdoutValue: true,
      },
    });
    if (batch.length === 0) break;
    for (const s of batch) {
      if (!stream || stream.team !== s.streamTeamId) {
        const streams = createStreams(secret, s.streamTeamId);
        stream = { team: s.streamTeamId, streams, threshold: initThresholdout(params, streams).noisyThreshold, next: 1 };
      }
      report.queries++;
      if (s.queryIndex !== stream.next) mismatch(s.id, `query index ${s.queryIndex}, expected ${stream.next}`);
      stream.next = s.queryIndex + 1;
      const step = stepThresholdout(
        params,
        { budget: s.budgetBefore, noisyThreshold: stream.threshold, queries: s.queryIndex - 1 },
        { holdoutValue: s.holdoutValue, publicValue: s.publicValue },
        stream.streams,
      );
      stream.threshold = step.state.noisyThreshold;
      if (step.answer.kind !== s.kind || step.answer.value !== s.answer || step.state.budget !== s.budgetAfter) {
        mismatch(s.id, `stored ${s.kind} ${s.answer} (budget ${s.budgetAfter}), replay gives ${step.answer.kind} ${step.answer.value} (budget ${step.state.budget})`);
      } else if (s.remeasure !== null && remeasureHoldout(params, s.queryIndex, s.holdoutValue, stream.streams) !== s.remeasure) {
        mismatch(s.id, `stored re-measurement ${s.remeasure} differs from its replay`);
      }
    }
    const last = batch[batch.length - 1];
    cursor = { streamTeamId: last.streamTeamId, queryIndex: last.queryIndex };
  }
  return report;
}

/**
 * The holdout's health: the DP privacy each team has spent (accounting.ts: its holdout answers,
 * its re-measured leaderboard scores and its open threshold epoch), the total over teams (basic
 * composition: every team queries the same holdout; each leaderboard baseline adds one
 * re-measurement), and the teams that exhausted their budget.
 */
export async function holdoutHealth(user: PublicUser, slug: string): Promise<HealthReport> {
  const competition = await requireOrganizer(user, slug);
  const solution = await db.solution.findUnique({ where: { competitionId: competition.id }, select: { holdoutRows: true } });
  if (!solution || competition.sigma === null) return { perHoldoutAnswer: 0, total: 0, teams: [], exhausted: 0, baselines: 0 };
  const teams = await db.$queryRaw<{ id: string; name: string; initial_budget: number; budget_remaining: number; remeasures: number; last_kind: string | null }[]>`
    SELECT t.id, t.name, t.initial_budget, t.budget_remaining, t.remeasures,
           (SELECT s.kind::text FROM submissions s WHERE s.team_id = t.id ORDER BY s.created_at DESC, s.query_index DESC LIMIT 1) AS last_kind
    FROM teams t WHERE t.competition_id = ${competition.id}::uuid AND t.merged_into_id IS NULL ORDER BY t.name`;
  // A threshold epoch is open (its cost incurred) once it has answered a query below the threshold.
  const releases = new Map<string, TeamReleases>(
    teams.map((t) => [t.id, { holdoutAnswers: t.initial_budget - t.budget_remaining, remeasures: t.remeasures, openEpoch: t.last_kind === "public" && t.budget_remaining > 0 }]),
  );
  const baselines = await db.unrankedSubmission.count({ where: { competitionId: competition.id, kind: "sandbox", baselineValue: { not: null } } });
  for (let i = 0; i < baselines; i++) releases.set(`baseline ${i}`, { holdoutAnswers: 0, remeasures: 1, openEpoch: false });
  const spent = privacySpent(releases, competition.sigma, solution.holdoutRows);
  const rows = teams.map((t) => {
    const r = releases.get(t.id)!;
    return { name: t.name, ...r, epsDp: spent.perTeam.get(t.id)!, remaining: t.budget_remaining, initial: t.initial_budget, exhausted: t.budget_remaining === 0 };
  });
  return {
    perHoldoutAnswer: epsPerHoldoutAnswer(competition.sigma, solution.holdoutRows),
    total: spent.total,
    teams: rows,
    exhausted: rows.filter((r) => r.exhausted).length,
    baselines,
  };
}
