import "server-only";
import { presentAnswer } from "./answer";
import type { KeptSubmission } from "./files";
import type { ScoredUpload } from "./upload";
import type { PublicUser } from "@/lib/server/accounts/users";
import { type CompetitionRow, thresholdoutParams } from "@/lib/server/competitions/competitions";
import { shapesOf } from "@/lib/server/competitions/solutions";
import { type CompetitionEvent, eventFor, receiversOf } from "@/lib/server/competitions/webhooks";
import { transaction } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { queueEventsStatement } from "@/lib/server/platform/outbox";
import { limitsOf, refuseOverCap, usedTodaySql } from "@/lib/server/teams/daily-cap";
import { disqualifiedError } from "@/lib/server/teams/teams";
import { Prisma } from "@/lib/generated/prisma/client";
import { createStreams } from "@/lib/mechanism/rng";
import { type BoardKind, nextBoardRow } from "@/lib/mechanism/board";
import { initThresholdout, stepThresholdout } from "@/lib/mechanism/thresholdout";
import type { Metric } from "@/lib/metrics/registry";
import type { StoredKind } from "@/lib/responses";
import type { SubmissionResult } from "@/lib/responses";
import { displayBound } from "@/lib/server/competitions/plans";
import type { ScoreBoundSetting } from "@/lib/calibration/score-bounds";

/** What the scoring transaction of `submit` (submit.ts, see there) takes. */
export type MechanismScoring = {
  user: PublicUser;
  competition: CompetitionRow;
  metric: Metric;
  teamId: string;
  scored: ScoredUpload;
  idempotencyKey: string | null;
  file: { description: string | null; filename: string };
  /** the submission's id and where its file is already in the store (files.ts keepSubmissionFile) */
  kept: KeptSubmission;
  /** what the answer's bound depends on (competitions/plans.ts getScoreBounds) */
  bounds: ScoreBoundSetting | null;
  now?: Date;
};

/** An answered submission's `submission.scored` webhook event: which team, when, and its budget (as the live board shows it); never a score. */
export function scoredEvent(result: SubmissionResult, teamId: string, late: boolean): CompetitionEvent {
  const { id, createdAt, budget } = result;
  return { type: "submission.scored", id, at: new Date(createdAt), data: { submission: { id, createdAt, late }, team: { id: teamId }, budget: budget ?? null } };
}

/**
 * The scoring transaction of `submit` (submit.ts, see there). With the submission it queues its
 * `submission.scored` event for the competition's webhooks (`queued`: the outbox rows to `deliver`
 * once committed), so that a process that dies after the commit loses no event: the scheduler sends it.
 */
export async function scoreThroughMechanism(scoring: MechanismScoring): Promise<{ result: SubmissionResult; replayed: boolean; queued: string[] }> {
  const { user, competition, metric, teamId, scored, idempotencyKey, bounds, now } = scoring;
  const { description, filename } = scoring.file;
  const { holdoutValue, publicValue, sha256, sketch, kept, data } = scored;
  const { id, storageKey } = scoring.kept;
  const params = thresholdoutParams(competition, shapesOf(competition, data.solution).holdout);

  return transaction(async (tx) => {
    // The competition's state under a key-share lock that closing waits for, then the team's row
    // lock (as `lockTeam`) with the row itself: all three reads go out with BEGIN, and the writes
    // with the COMMIT, so from the lock to the commit this section, serial per team, waits for one
    // answer and one commit (docs/performance.md, "Many submissions at once"). The order matters: closing locks the competition
    // and then writes every team's row, so a scoring that held its team's row while waiting for the
    // competition deadlocked with it. With a competition-wide cap on holdout answers, scorings of
    // all teams take turns on the competition row so that they cannot pass the cap together;
    // otherwise they share it.
    const competitionState = tx.read<Live>(Prisma.sql`
        SELECT status, ends_at AT TIME ZONE 'UTC' AS "endsAt", holdout_answers AS "holdoutAnswers", secret
        FROM competitions WHERE id = ${competition.id}::uuid ${competition.holdoutCap === null ? Prisma.sql`FOR KEY SHARE` : Prisma.sql`FOR UPDATE`}`);
    const lockedTeam = tx.read<LockedTeam>(Prisma.sql`
        SELECT merged_into_id AS "mergedIntoId", disqualify_reason AS "disqualifyReason", disqualified_at IS NOT NULL AS disqualified,
          initial_budget AS "initialBudget", budget_remaining AS "budgetRemaining", noisy_threshold AS "noisyThreshold", query_count AS "queryCount",
          absorbed_queries AS "absorbedQueries", holdout_answers AS "holdoutAnswers",
          best_value AS "bestValue", best_kind AS "bestKind", best_at AT TIME ZONE 'UTC' AS "bestAt", best_position AS "bestPosition", best_prior AS "bestPrior"
        FROM teams WHERE id = ${teamId}::uuid FOR UPDATE`);
    // Runs after the team's lock is held (statements run in order), so it sees every committed
    // submission of the team, and reads the submission's time: `now` when given, else the database's
    // clock as the lock is held.
    const time = now ? Prisma.sql`${now.toISOString()}::timestamp` : Prisma.sql`clock_timestamp() AT TIME ZONE 'UTC'`;
    const teamState = tx.read<Clock>(Prisma.sql`
        SELECT clock.at AT TIME ZONE 'UTC' AS at, ${usedTodaySql(Prisma.sql`${teamId}::uuid`, Prisma.sql`clock.at`)} AS "usedToday",
          (SELECT json_build_object('id', s.id, 'createdAt', s.created_at, 'kind', s.kind, 'answer', s.answer, 'publicValue', s.public_value, 'budgetAfter', s.budget_after, 'sha256', s.file_sha256,
              'position', (SELECT count(*) FROM submissions p WHERE p.team_id = s.team_id AND p.created_at <= s.created_at),
              'prior', (SELECT count(*) FROM submissions p WHERE p.team_id = s.team_id AND p.kind = 'holdout' AND p.created_at < s.created_at))
            FROM submissions s WHERE s.team_id = ${teamId}::uuid AND s.idempotency_key = ${idempotencyKey} ORDER BY s.created_at LIMIT 1) AS previous
        FROM (SELECT ${time} AS at) clock`);
    // The webhooks that hear of the submission, read with the rest (no round trip of its own).
    const receivers = tx.read<{ id: string }>(receiversOf(competition.id, "submission.scored"));
    const [[live], [team], [clock], hooks] = await Promise.all([competitionState, lockedTeam, teamState, receivers]);
    const at = clock.at;
    if (live.status !== "published" || at >= live.endsAt) throw new AppError("conflict", "this competition has closed; the submission was not scored");
    if (team.mergedIntoId) throw new AppError("conflict", "your team was just merged into another; submit again");
    if (team.disqualified) throw disqualifiedError(team.disqualifyReason);
    const previous = clock.previous;
    if (previous && previous.sha256 !== sha256) {
      throw new AppError("conflict", "this Idempotency-Key was already used by your team for a different file; use a new key for a new submission");
    }
    const boundOf = (kind: StoredKind, value: number | null, index: number, prior: number) =>
      displayBound(bounds, metric, { kind, value, index, prior, budget: team.initialBudget });
    if (previous) {
      const result = {
        id: previous.id,
        createdAt: new Date(`${previous.createdAt}Z`).toISOString(),
        answer: presentAnswer(metric, competition.displayPrecision, {
          kind: previous.kind,
          answer: previous.answer,
          publicValue: previous.publicValue,
          bound: boundOf(previous.kind, previous.answer, previous.position, previous.prior),
        }),
        budget: { remaining: previous.budgetAfter, initial: team.initialBudget },
      };
      return { result, replayed: true, queued: [] };
    }
    // Past m the answer is "limit", which the daily cap does not count: it is no reason to refuse.
    if (team.queryCount + team.absorbedQueries < params.maxQueries) refuseOverCap(limitsOf(competition.dailySubmissionLimit, clock.usedToday, at), at);
    const capReached = competition.holdoutCap !== null && live.holdoutAnswers >= competition.holdoutCap;
    const streams = createStreams(live.secret, teamId);
    const before = {
      budget: capReached ? 0 : team.budgetRemaining,
      noisyThreshold: team.noisyThreshold ?? initThresholdout(params, streams).noisyThreshold,
      queries: team.queryCount,
      absorbed: team.absorbedQueries,
    };
    const step = stepThresholdout(params, before, { holdoutValue, publicValue }, streams);
    const spent = before.budget - step.state.budget;
    const value = step.answer.value;
    // ⊥ because the competition-wide cap is reached, not the team's own budget: said so (the audit takes it as the ⊥ it replays).
    const kind = capReached && step.answer.kind === "exhausted" && team.budgetRemaining > 0 ? "capped" : step.answer.kind;
    const shown = team.bestValue === null ? null : { value: team.bestValue, kind: team.bestKind!, at: team.bestAt! };
    const row = nextBoardRow(shown, { kind, value, at }, metric.direction);
    // This query's place in the team's transcript (docs/mechanism.md §2.8): its bound, and the board row's when it becomes the shown answer.
    const position = step.state.queries + team.absorbedQueries;
    const prior = team.holdoutAnswers;
    const place = row === shown ? { position: team.bestPosition, prior: team.bestPrior } : { position, prior };
    // The submission, its file (its bytes already in the store), the team's mechanism state and leaderboard row, and the
    // competition's count of holdout answers: one statement. When the row's place on the board may
    // change, the teams table's trigger also bumps the competition's board version
    // (boards/ranking.ts): like the count, an update of the competition row, which the other
    // scorings' key-share locks do not block and which is held only until this commit.
    const stamp = (date: Date | null) => (date === null ? null : date.toISOString());
    tx.write(Prisma.sql`
        WITH created AS (
          INSERT INTO submissions (id, competition_id, team_id, user_id, created_at, idempotency_key, file_sha256, stream_team_id, query_index, position, kind, answer,
            budget_before, budget_after, public_value, holdout_value, sketch, description, filename)
          VALUES (${id}::uuid, ${competition.id}::uuid, ${teamId}::uuid, ${user.id}::uuid, ${stamp(at)}::timestamp, ${idempotencyKey}, ${sha256}, ${teamId}::uuid,
            ${step.state.queries}, ${position}, ${kind}::"AnswerKind", ${value}, ${before.budget}, ${step.state.budget}, ${publicValue}, ${holdoutValue},
            ${new Uint8Array(sketch.buffer)}, ${description}, ${filename})
          RETURNING id),
        file AS (INSERT INTO submission_files (submission_id, size, storage_key) SELECT id, ${kept.size}, ${storageKey} FROM created),
        competition AS (UPDATE competitions SET holdout_answers = holdout_answers + ${spent} WHERE id = ${competition.id}::uuid AND ${spent}::int > 0)
        UPDATE teams SET budget_remaining = ${team.budgetRemaining - spent}, noisy_threshold = ${step.state.noisyThreshold}, query_count = ${step.state.queries},
          holdout_answers = holdout_answers + ${kind === "holdout" ? 1 : 0}, submission_count = submission_count + 1, last_submission_at = ${stamp(at)}::timestamp,
          best_value = ${row?.value ?? null}, best_kind = ${row?.kind ?? null}, best_at = ${stamp(row?.at ?? null)}::timestamp,
          best_position = ${place.position}::int, best_prior = ${place.prior}::int
        WHERE id = ${teamId}::uuid`);
    const result = {
      id,
      createdAt: at.toISOString(),
      answer: presentAnswer(metric, competition.displayPrecision, { kind, answer: value, publicValue, bound: boundOf(kind, value, position, prior) }),
      budget: { remaining: team.budgetRemaining - spent, initial: team.initialBudget },
    };
    // Its webhook event, with the COMMIT.
    const event = queueEventsStatement(eventFor(competition, scoredEvent(result, teamId, false), hooks));
    if (event) tx.write(event.statement);
    return { result, replayed: false, queued: event?.ids ?? [] };
  });
}

type LockedTeam = {
  mergedIntoId: string | null;
  disqualified: boolean;
  disqualifyReason: string | null;
  initialBudget: number;
  budgetRemaining: number;
  noisyThreshold: number | null;
  queryCount: number;
  absorbedQueries: number;
  holdoutAnswers: number;
  bestValue: number | null;
  bestKind: BoardKind | null;
  bestAt: Date | null;
  bestPosition: number | null;
  bestPrior: number | null;
};

type Live = {
  status: string;
  endsAt: Date;
  holdoutAnswers: number;
  secret: Uint8Array;
};

type Clock = {
  /** the submission's time */
  at: Date;
  usedToday: number;
  /** the first answer to this Idempotency-Key (json: `createdAt` is the stored UTC timestamp without a zone) */
  previous: {
    id: string;
    createdAt: string;
    kind: StoredKind;
    answer: number | null;
    publicValue: number;
    budgetAfter: number;
    sha256: string;
    position: number;
    prior: number;
  } | null;
};
