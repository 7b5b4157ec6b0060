import "server-only";
import { promisify } from "node:util";
import { randomUUID } from "node:crypto";
import { gunzip as gunzipCallback } from "node:zlib";
import { bannedError } from "./access";
import { getVisibleCompetition, type CompetitionRow, isOrganizer, metricOf } from "./competitions";
import { readCsvUpload } from "./csv-upload";
import { dailyLimits, limitsOf, refuseOverCap, usedTodaySql } from "./daily-cap";
import { db, lockTeam, transaction } from "./db";
import { AppError } from "./errors";
import { checkOpen, finalSubmissionIds } from "./lifecycle";
import { scoringSeconds, submissionsTotal } from "./metrics";
import { consumeRateLimit } from "./rate-limit";
import { loadSolution } from "./solutions";
import type { PublicUser } from "./users";
import type { Solution } from "@/lib/csv/solution";
import { createSubmissionParser, submissionKey, type SubmissionKey } from "@/lib/csv/submission";
import { Prisma } from "@/lib/generated/prisma/client";
import { createStreams } from "@/lib/mechanism/rng";
import { initThresholdout, remeasureHoldout, stepThresholdout, type AnswerKind, type ThresholdoutParams } from "@/lib/mechanism/thresholdout";
import { evaluateSplit, isBetter, type Metric } from "@/lib/metrics/registry";
import { sketchOf, sketchRows } from "@/lib/metrics/sketch";
import type { MySubmission, ResultKind, SubmissionResult } from "@/lib/responses";
import { isUuid } from "@/lib/validation/ids";
import { descriptionSchema, safeFilename } from "@/lib/validation/files";
import { finalSelectionSchema } from "@/lib/validation/teams";

const gunzip = promisify(gunzipCallback);

export type ScoredUpload = { holdoutValue: number; publicValue: number; sha256: string; sketch: Int32Array<ArrayBuffer>; kept: { gzip: Buffer; size: number }; data: ScoringData };

/**
 * Reads and validates a predictions file in full against the solution, and computes its exact
 * holdout and public values Q(X), Q(D), its near-duplicate sketch and its compressed copy. Nothing is
 * spent or written: every rejection happens here.
 */
export async function scoreUpload(competition: CompetitionRow, metric: Metric, body: ReadableStream<Uint8Array>): Promise<ScoredUpload> {
  const data = await scoringData(competition);
  const parser = createSubmissionParser(data.key, metric.input);
  try {
    const { result: predictions, sha256, file: kept } = await readCsvUpload(body, { what: "the submission", parser, keep: true });
    const labels = data.solution.labels;
    return {
      holdoutValue: evaluateSplit(metric, { predictions, labels, rows: data.holdoutRows }),
      publicValue: evaluateSplit(metric, { predictions, labels, rows: data.publicRows }),
      sha256,
      sketch: sketchOf(predictions, data.sketchRows),
      kept: kept!,
      data,
    };
  } finally {
    parser.release();
  }
}

/** Largest submission accepted (docs/api.md: 413 beyond). 10⁶ rows with long ids fit. */
export const MAX_SUBMISSION_BYTES = 128 * 1024 * 1024;
const MAX_FINAL = 2;

type ScoringData = { solution: Solution; key: SubmissionKey; publicRows: Uint32Array; holdoutRows: Uint32Array; sketchRows: Uint32Array };

// Per competition: the decoded solution plus the id index, built once per solution file.
const scoringCache = new WeakMap<Solution, ScoringData>();

async function scoringData(competition: CompetitionRow): Promise<ScoringData> {
  const competitionId = competition.id;
  const solution = await loadSolution(competitionId, { published: competition.status !== "draft" });
  if (!solution) throw new AppError("conflict", "this competition has no solution");
  let data = scoringCache.get(solution);
  if (!data) {
    const publicRows: number[] = [];
    const holdoutRows: number[] = [];
    solution.split.forEach((s, r) => (s ? holdoutRows : publicRows).push(r));
    const holdout = Uint32Array.from(holdoutRows);
    data = { solution, key: submissionKey(solution), publicRows: Uint32Array.from(publicRows), holdoutRows: holdout, sketchRows: sketchRows(holdout, competitionId) };
    scoringCache.set(solution, data);
  }
  return data;
}

/** Algorithm 1's parameters for a published competition: σ, T, B₀ and m as fixed at publishing. */
export function thresholdoutParams(competition: CompetitionRow, holdoutSize: number): ThresholdoutParams {
  return {
    mode: "thresholdout",
    sigma: competition.sigma!,
    threshold: competition.threshold!,
    budget: competition.budget!,
    holdoutSize,
    maxQueries: competition.maxQueries ?? undefined,
  };
}

/** The answer as a competitor sees it: kind and the released value in the metric's units. */
function present(metric: Metric, kind: ResultKind, answer: number | null) {
  return { kind, score: answer === null ? null : metric.toDisplay(answer) };
}

/**
 * Scores a submission through the team's Thresholdout (docs/mechanism.md §2). Everything that can
 * reject the file happens first and spends nothing. Then, in one transaction holding a row lock on
 * the team: the competition is re-checked (still published, before its deadline) under a key-share
 * lock on its row that closing waits for; a repeated Idempotency-Key is answered (the first result
 * for the same file, 409 for another); the daily cap is checked (and a competition-wide holdout
 * cap, under the competition's row lock); the next query index is taken, Algorithm 1 stepped, a
 * new best answer re-measured, and the submission, the team's mechanism state and its leaderboard
 * row written together. Concurrent submissions of one team (on any number of app instances) are
 * thereby serialised, and a crash before the commit leaves nothing behind. `now` fixes the
 * submission's time (tests, the demo seed); by default it is the database's clock once the team's
 * lock is held.
 */
export async function submit(
  user: PublicUser,
  slug: string,
  body: ReadableStream<Uint8Array> | null,
  idempotencyKey: string | null,
  now?: Date,
  file: { name?: string | null; description?: string | null } = {},
): Promise<{ result: SubmissionResult; replayed: boolean }> {
  const competition = await getVisibleCompetition(user, slug);
  const late = competition.status === "closed" && competition.lateSubmissions;
  if (!late) checkOpen(competition, now ?? new Date());
  const description = descriptionSchema.parse(file.description ?? "");
  const filename = safeFilename(file.name ?? "") ?? "submission.csv";
  const metric = metricOf(competition);
  if (idempotencyKey !== null && (idempotencyKey.length < 1 || idempotencyKey.length > 200))
    throw new AppError("unprocessable_entity", "Idempotency-Key must be 1 to 200 characters");
  // The caller's team and a ban, in one round trip (this path runs for every submission).
  const [member] = await db.$queryRaw<{ teamId: string; ban: string | null }[]>`
    SELECT m.team_id AS "teamId", b.reason AS ban FROM team_members m
    LEFT JOIN competition_bans b ON b.competition_id = m.competition_id AND b.user_id = m.user_id
    WHERE m.competition_id = ${competition.id}::uuid AND m.user_id = ${user.id}::uuid`;
  if (!member) throw new AppError("forbidden", "join or create a team in this competition before submitting");
  if (member.ban !== null) throw bannedError(member.ban);
  await consumeRateLimit("submissions", user.id);
  if (!body) throw new AppError("unprocessable_entity", 'send the predictions CSV as the request body or as the multipart field "file"');

  const started = performance.now();
  const scored = await scoreUpload(competition, metric, body);
  const outcome = late
    ? { result: await recordLate(user, competition, metric, member.teamId, scored, { description, filename }, now), replayed: false }
    : await scoreThroughMechanism(user, competition, metric, member.teamId, scored, idempotencyKey, { description, filename }, now);
  if (!outcome.replayed) {
    scoringSeconds.observe((performance.now() - started) / 1000);
    submissionsTotal.inc({ kind: outcome.result.answer.kind });
  }
  return outcome;
}

/** The scoring transaction of `submit` (see there). */
async function scoreThroughMechanism(
  user: PublicUser,
  competition: CompetitionRow,
  metric: Metric,
  teamId: string,
  scored: ScoredUpload,
  idempotencyKey: string | null,
  { description, filename }: { description: string | null; filename: string },
  now?: Date,
): Promise<{ result: SubmissionResult; replayed: boolean }> {
  const { holdoutValue, publicValue, sha256, sketch, kept, data } = scored;
  const params = thresholdoutParams(competition, data.holdoutRows.length);

  return transaction(async (tx) => {
    // The team's row lock (as `lockTeam`) with the row itself, and the competition's state; both go
    // out with BEGIN, and the writes with the COMMIT: from the lock to the commit this section, serial
    // per team, waits for one answer and one commit (README, Reliability).
    const lockedTeam = tx.read<LockedTeam>(Prisma.sql`
        SELECT merged_into_id AS "mergedIntoId", disqualify_reason AS "disqualifyReason", disqualified_at IS NOT NULL AS disqualified,
          initial_budget AS "initialBudget", budget_remaining AS "budgetRemaining", noisy_threshold AS "noisyThreshold", query_count AS "queryCount",
          selection_score AS "selectionValue", best_score AS "bestValue", best_at AT TIME ZONE 'UTC' AS "bestAt", remeasures
        FROM teams WHERE id = ${teamId}::uuid FOR UPDATE`);
    // Runs after the lock is held (statements run in order), so it sees every committed submission
    // of the team, and reads the submission's time: `now` when given, else the database's clock as
    // the lock is held. With a competition-wide cap on holdout answers, scorings of all teams take
    // turns on the competition row so that they cannot pass the cap together; otherwise they share it.
    const time = now ? Prisma.sql`${now.toISOString()}::timestamp` : Prisma.sql`clock_timestamp() AT TIME ZONE 'UTC'`;
    const liveState = tx.read<Live>(Prisma.sql`
        SELECT status, ends_at AT TIME ZONE 'UTC' AS "endsAt", holdout_answers AS "holdoutAnswers", secret, clock.at AT TIME ZONE 'UTC' AS at,
          ${usedTodaySql(teamId, Prisma.sql`clock.at`)} AS "usedToday",
          (SELECT json_build_object('id', s.id, 'createdAt', s.created_at, 'kind', s.kind, 'answer', s.answer, 'budgetAfter', s.budget_after, 'sha256', s.file_sha256)
            FROM submissions s WHERE s.team_id = ${teamId}::uuid AND s.idempotency_key = ${idempotencyKey} ORDER BY s.created_at LIMIT 1) AS previous
        FROM competitions, LATERAL (SELECT ${time} AS at) clock
        WHERE id = ${competition.id}::uuid ${competition.holdoutCap === null ? Prisma.sql`FOR KEY SHARE OF competitions` : Prisma.sql`FOR UPDATE OF competitions`}`);
    const [[team], [live]] = await Promise.all([lockedTeam, liveState]);
    const at = live.at;
    if (live.status !== "published" || at >= live.endsAt) throw new AppError("conflict", "this competition has closed; the submission was not scored");
    if (team.mergedIntoId) throw new AppError("conflict", "your team was just merged into another; submit again");
    if (team.disqualified) throw new AppError("forbidden", `your team was disqualified by the organizers: ${team.disqualifyReason}`);
    const previous = live.previous;
    if (previous && previous.sha256 !== sha256) {
      throw new AppError("conflict", "this Idempotency-Key was already used by your team for a different file; use a new key for a new submission");
    }
    if (previous) {
      const result = {
        id: previous.id,
        createdAt: new Date(`${previous.createdAt}Z`).toISOString(),
        answer: present(metric, previous.kind, previous.answer),
        budget: { remaining: previous.budgetAfter, initial: team.initialBudget },
      };
      return { result, replayed: true };
    }
    refuseOverCap(limitsOf(competition.dailySubmissionLimit, live.usedToday, at), at);
    const capReached = competition.holdoutCap !== null && live.holdoutAnswers >= competition.holdoutCap;
    const streams = createStreams(live.secret, teamId);
    const before = {
      budget: capReached ? 0 : team.budgetRemaining,
      noisyThreshold: team.noisyThreshold ?? initThresholdout(params, streams).noisyThreshold,
      queries: team.queryCount,
    };
    const step = stepThresholdout(params, before, { holdoutValue, publicValue }, streams);
    const spent = before.budget - step.state.budget;
    const value = step.answer.value;
    // Selection by the released answer, display of a fresh re-measurement (docs/mechanism.md §2.6).
    const improves = value !== null && (team.selectionValue === null || isBetter(metric, value, team.selectionValue));
    const remeasure = improves && team.remeasures < team.initialBudget ? remeasureHoldout(params, step.state.queries, holdoutValue, streams) : null;
    const best =
      remeasure !== null
        ? { selection: value, score: remeasure, at, remeasures: team.remeasures + 1 }
        : { selection: team.selectionValue, score: team.bestValue, at: team.bestAt, remeasures: team.remeasures };
    // The submission, its file, the team's mechanism state and leaderboard row, and the
    // competition's count of holdout answers: one statement.
    const id = randomUUID();
    const stamp = (date: Date | null) => (date === null ? null : date.toISOString());
    tx.write(Prisma.sql`
        WITH created AS (
          INSERT INTO submissions (id, competition_id, team_id, user_id, created_at, idempotency_key, file_sha256, stream_team_id, query_index, kind, answer,
            budget_before, budget_after, remeasure, public_score, holdout_score, sketch, description, filename)
          VALUES (${id}::uuid, ${competition.id}::uuid, ${teamId}::uuid, ${user.id}::uuid, ${stamp(at)}::timestamp, ${idempotencyKey}, ${sha256}, ${teamId}::uuid,
            ${step.state.queries}, ${step.answer.kind}::"AnswerKind", ${value}, ${before.budget}, ${step.state.budget}, ${remeasure}, ${publicValue}, ${holdoutValue},
            ${new Uint8Array(sketch.buffer)}, ${description}, ${filename})
          RETURNING id),
        file AS (INSERT INTO submission_files (submission_id, size, data) SELECT id, ${kept.size}, ${new Uint8Array(kept.gzip)} FROM created),
        competition AS (UPDATE competitions SET holdout_answers = holdout_answers + ${spent} WHERE id = ${competition.id}::uuid AND ${spent}::int > 0)
        UPDATE teams SET budget_remaining = ${team.budgetRemaining - spent}, noisy_threshold = ${step.state.noisyThreshold}, query_count = ${step.state.queries},
          submission_count = submission_count + 1, last_submission_at = ${stamp(at)}::timestamp,
          selection_score = ${best.selection}, best_score = ${best.score}, best_at = ${stamp(best.at)}::timestamp, remeasures = ${best.remeasures}
        WHERE id = ${teamId}::uuid`);
    const result = {
      id,
      createdAt: at.toISOString(),
      answer: present(metric, step.answer.kind, value),
      budget: { remaining: team.budgetRemaining - spent, initial: team.initialBudget },
    };
    return { result, replayed: false };
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
  selectionValue: number | null;
  bestValue: number | null;
  bestAt: Date | null;
  remeasures: number;
};

type Live = {
  status: string;
  endsAt: Date;
  /** the submission's time */
  at: Date;
  holdoutAnswers: number;
  secret: Uint8Array;
  usedToday: number;
  /** the first answer to this Idempotency-Key (json: `createdAt` is the stored UTC timestamp without a zone) */
  previous: { id: string; createdAt: string; kind: AnswerKind; answer: number | null; budgetAfter: number; sha256: string } | null;
};

/**
 * A late submission (after the close, when the organizers allow them): answered with the exact
 * holdout score and recorded outside the mechanism (no budget spent, no query index), on the late
 * board; the final standings never change. It counts against the daily cap. Idempotency-Key is not
 * needed here: repeating a late submission spends nothing.
 */
async function recordLate(
  user: PublicUser,
  competition: CompetitionRow,
  metric: Metric,
  teamId: string,
  scored: ScoredUpload,
  file: { description: string | null; filename: string },
  now?: Date,
): Promise<SubmissionResult> {
  return db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    const at = now ?? new Date();
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { disqualifiedAt: true, disqualifyReason: true, budgetRemaining: true, initialBudget: true } });
    if (team.disqualifiedAt) throw new AppError("forbidden", `your team was disqualified by the organizers: ${team.disqualifyReason}`);
    refuseOverCap(await dailyLimits(tx, teamId, competition.dailySubmissionLimit, at), at);
    const created = await tx.unrankedSubmission.create({
      data: {
        id: randomUUID(),
        competitionId: competition.id,
        kind: "late",
        teamId,
        userId: user.id,
        createdAt: at,
        fileSha256: scored.sha256,
        publicValue: scored.publicValue,
        holdoutValue: scored.holdoutValue,
        description: file.description,
        filename: file.filename,
        fileSize: scored.kept.size,
        fileData: new Uint8Array(scored.kept.gzip),
      },
      select: { id: true, createdAt: true },
    });
    return {
      id: created.id,
      createdAt: created.createdAt.toISOString(),
      answer: present(metric, "late", scored.holdoutValue),
      budget: { remaining: team.budgetRemaining, initial: team.initialBudget },
    };
  });
}

/** The caller's team's submissions, newest first (late ones, after the close, first): answers only, never raw scores. */
export async function listMySubmissions(user: PublicUser, slug: string): Promise<{ submissions: MySubmission[]; finalIds: string[] }> {
  const competition = await getVisibleCompetition(user, slug);
  const metric = metricOf(competition);
  const member = await db.teamMember.findUnique({
    where: { competitionId_userId: { competitionId: competition.id, userId: user.id } },
    select: { teamId: true, team: { select: { initialBudget: true } } },
  });
  if (!member) return { submissions: [], finalIds: [] };
  const rows = await db.submission.findMany({
    where: { teamId: member.teamId },
    orderBy: { createdAt: "desc" },
    select: { id: true, createdAt: true, kind: true, answer: true, budgetAfter: true, selected: true, description: true, filename: true, user: { select: { name: true } } },
  });
  const submissions = rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    by: s.user.name,
    answer: present(metric, s.kind, s.answer),
    budget: { remaining: s.budgetAfter, initial: member.team.initialBudget },
    selected: s.selected,
    description: s.description,
    filename: s.filename,
  }));
  const late = await db.unrankedSubmission.findMany({
    where: { teamId: member.teamId, kind: "late" },
    orderBy: { createdAt: "desc" },
    select: { id: true, createdAt: true, holdoutValue: true, description: true, filename: true, user: { select: { name: true } } },
  });
  const budget = { remaining: rows[0]?.budgetAfter ?? member.team.initialBudget, initial: member.team.initialBudget };
  const lateRows = late.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    by: s.user.name,
    answer: present(metric, "late", s.holdoutValue),
    budget,
    selected: false,
    description: s.description,
    filename: s.filename,
  }));
  return { submissions: [...lateRows, ...submissions], finalIds: finalSubmissionIds(metric, rows) };
}

/** Selects or unselects a submission for the final standings (at most 2 per team). */
export async function selectFinal(user: PublicUser, slug: string, submissionId: string, input: unknown): Promise<{ id: string; selected: boolean }> {
  const competition = await getVisibleCompetition(user, slug);
  if (competition.status === "closed") throw new AppError("conflict", "the competition has closed; the final selection is locked");
  const { selected } = finalSelectionSchema.parse(input);
  if (!isUuid(submissionId)) throw new AppError("not_found", "no such submission in your team");
  const member = await db.teamMember.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } }, select: { teamId: true } });
  const submission = await db.submission.findFirst({ where: { id: submissionId, teamId: member?.teamId ?? "00000000-0000-0000-0000-000000000000" }, select: { id: true } });
  if (!member || !submission) throw new AppError("not_found", "no such submission in your team");
  await db.$transaction(async (tx) => {
    await lockTeam(tx, member.teamId);
    if (selected) {
      const count = await tx.submission.count({ where: { teamId: member.teamId, selected: true, id: { not: submissionId } } });
      if (count >= MAX_FINAL) throw new AppError("conflict", `at most ${MAX_FINAL} submissions can be selected; unselect one first`);
    }
    await tx.submission.update({ where: { id: submissionId }, data: { selected } });
  });
  return { id: submissionId, selected };
}

/**
 * GET …/submissions/{id}/file: the uploaded file, byte for byte, for the members of the team that
 * submitted it and for the organizers (late submissions too; sandbox tests: organizers only).
 */
export async function getSubmissionFile(user: PublicUser, slug: string, submissionId: string): Promise<{ filename: string; bytes: Buffer }> {
  const competition = await getVisibleCompetition(user, slug);
  const organizer = await isOrganizer(user, competition.id);
  const notFound = new AppError("not_found", "no such submission in your team");
  if (!isUuid(submissionId)) throw notFound;
  const where = { id: submissionId, competitionId: competition.id };
  const scored = await db.submission.findFirst({ where, select: { teamId: true, filename: true, file: { select: { data: true } } } });
  const unranked = scored ? null : await db.unrankedSubmission.findFirst({ where, select: { teamId: true, filename: true, fileData: true } });
  const found = scored
    ? { teamId: scored.teamId, filename: scored.filename, data: scored.file?.data }
    : unranked && { teamId: unranked.teamId, filename: unranked.filename, data: unranked.fileData };
  if (!found) throw notFound;
  if (!organizer) {
    const member = await db.teamMember.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } }, select: { teamId: true } });
    if (found.teamId === null || member?.teamId !== found.teamId) throw notFound;
  }
  if (!found.data) throw new AppError("not_found", "this submission was made before files were kept");
  return { filename: found.filename ?? "submission.csv", bytes: await gunzip(found.data) };
}
