import "server-only";
import { randomUUID } from "node:crypto";
import { keepSubmissionFile } from "./files";
import { recordLate } from "./late";
import { scoreThroughMechanism } from "./transaction";
import { scoreUpload } from "./upload";
import type { PublicUser } from "@/lib/server/accounts/users";
import { bannedError, requireRules } from "@/lib/server/competitions/access";
import { getVisibleCompetition, metricOf } from "@/lib/server/competitions/competitions";
import { checkOpen } from "@/lib/server/competitions/lifecycle";
import { getScoreBounds } from "@/lib/server/competitions/plans";
import { runAfterAnswer } from "@/lib/server/platform/background";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { deliver } from "@/lib/server/platform/outbox";
import { scoringSeconds, submissionsTotal } from "@/lib/server/platform/metrics";
import { consumeRateLimit } from "@/lib/server/platform/rate-limit";
import { type FileDetails, fileDetails } from "@/lib/server/platform/uploads";
import { disqualifiedError } from "@/lib/server/teams/teams";
import { limitsOf, refuseOverCap, usedTodaySql } from "@/lib/server/teams/daily-cap";
import { Prisma } from "@/lib/generated/prisma/client";
import type { SubmissionResult } from "@/lib/responses";
import { noteSchema, safeFilename } from "@/lib/validation/files";

/** How a submission arrived: its Idempotency-Key, its file's name and note, and (tests, the demo seed) its time. */
export type SubmitOptions = { idempotencyKey?: string | null; now?: Date; details?: FileDetails };

/**
 * Scores a submission through the team's Thresholdout (docs/mechanism.md §2). Everything that can
 * refuse it without reading the file comes first, in one round trip: the competition open (or
 * taking late submissions), the caller in a team, not banned, the team not disqualified, the
 * caller meeting every access rule the organizers set now (competitions/access.ts requireRules, as
 * when joining: an address unverified or at another domain, an identity missing, no approval; a
 * query more for each rule there is), a
 * submission left today (unless the Idempotency-Key was used: the transaction answers it again);
 * then the per-account rate limit. Only then is the file read (`body`: from a request, an upload of
 * platform/uploads.ts, which waits for an upload slot first; `details` its name and note), and
 * everything that can reject it happens next and spends nothing. Then, in one transaction under a key-share lock on the competition (closing waits for
 * it) and a row lock on the team: the competition is re-checked (still published, before its
 * deadline); a repeated Idempotency-Key is answered (the first result for the same file, 409 for
 * another); the daily cap is checked (and a competition-wide holdout cap, under the competition's
 * row lock); the next query index is taken, Algorithm 1 stepped, and the submission, the team's
 * mechanism state and its leaderboard row written together; the answer carries its bound.
 * Concurrent submissions of one team (on any number of app instances) are thereby serialised, and
 * a crash before the commit leaves nothing behind but a file. The file's compressed copy is written
 * to the file store before that transaction, so no answered submission is without it; a refused or
 * replayed one's copy is removed, and one a crash left is swept (files.ts keepSubmissionFile). `now` fixes the submission's time (tests, the
 * demo seed); by default it is the database's clock once the team's lock is held.
 */
export async function submit(
  user: PublicUser,
  slug: string,
  body: ReadableStream<Uint8Array> | null,
  options: SubmitOptions = {},
): Promise<{ result: SubmissionResult; replayed: boolean }> {
  const { idempotencyKey = null, now, details = {} } = options;
  const competition = await getVisibleCompetition(user, slug);
  const at = now ?? new Date();
  const late = competition.status === "closed" && competition.lateSubmissions;
  if (!late) checkOpen(competition, at);
  const metric = metricOf(competition);
  if (idempotencyKey !== null && (idempotencyKey.length < 1 || idempotencyKey.length > 200))
    throw new AppError("unprocessable_entity", "Idempotency-Key must be 1 to 200 characters");
  const [member] = await db.$queryRaw<{ teamId: string; ban: string | null; disqualifyReason: string | null; usedToday: number; keyUsed: boolean; pastM: boolean }[]>`
    SELECT m.team_id AS "teamId", b.reason AS ban, CASE WHEN t.disqualified_at IS NULL THEN NULL ELSE coalesce(t.disqualify_reason, '') END AS "disqualifyReason",
      ${usedTodaySql(Prisma.sql`m.team_id`, Prisma.sql`${at.toISOString()}::timestamp`)} AS "usedToday",
      EXISTS (SELECT 1 FROM submissions s WHERE s.team_id = m.team_id AND s.idempotency_key = ${idempotencyKey}) AS "keyUsed",
      t.query_count + t.absorbed_queries >= ${competition.maxQueries ?? 2 ** 31 - 1} AS "pastM"
    FROM team_members m JOIN teams t ON t.id = m.team_id
    LEFT JOIN competition_bans b ON b.competition_id = m.competition_id AND b.user_id = m.user_id
    WHERE m.competition_id = ${competition.id}::uuid AND m.user_id = ${user.id}::uuid`;
  if (!member) throw new AppError("forbidden", "join or create a team in this competition before submitting");
  if (member.ban !== null) throw bannedError(member.ban);
  if (member.disqualifyReason !== null) throw disqualifiedError(member.disqualifyReason);
  await requireRules(user, competition);
  // Past m the answer is "limit", which the daily cap does not count: no reason to refuse it.
  if (!member.keyUsed && !member.pastM) refuseOverCap(limitsOf(competition.dailySubmissionLimit, member.usedToday, at), at);
  await consumeRateLimit("submissions", user.id);
  if (!body) throw new AppError("unprocessable_entity", 'send the predictions CSV as the request body or as the multipart field "file"');

  const started = performance.now();
  const [scored, bounds] = await Promise.all([scoreUpload(competition, metric, body), late ? null : getScoreBounds(competition)]);
  const { name, description } = await fileDetails(details);
  const file = { description: noteSchema.parse({ description: description ?? "" }).description, filename: safeFilename(name ?? "") ?? "submission.csv" };
  const outcome = await keepSubmissionFile(
    { competitionId: competition.id, id: randomUUID(), compressed: scored.kept.compressed },
    async (kept) =>
      late
        ? { ...(await recordLate({ user, competition, metric, teamId: member.teamId, scored, file, kept, now })), replayed: false }
        : await scoreThroughMechanism({ user, competition, metric, teamId: member.teamId, scored, idempotencyKey, file, kept, bounds, now }),
    (answered) => !answered.replayed,
  );
  if (!outcome.replayed) {
    scoringSeconds.observe((performance.now() - started) / 1000);
    submissionsTotal.inc({ kind: outcome.result.answer.kind });
    // The competition's webhooks hear of it (no score: transaction.ts scoredEvent) from the outbox row the transaction
    // queued: sent after the answer, so that a receiver's time is not the competitor's wait; by the scheduler if this process dies first.
    runAfterAnswer("the submission.scored webhook event", async () => void (await deliver(outcome.queued)));
  }
  return { result: outcome.result, replayed: outcome.replayed };
}
