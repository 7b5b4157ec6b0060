import "server-only";
import { recordLate } from "./late";
import { scoreThroughMechanism } from "./transaction";
import { scoreUpload } from "./upload";
import type { PublicUser } from "@/lib/server/accounts/users";
import { bannedError } from "@/lib/server/competitions/access";
import { getVisibleCompetition, metricOf } from "@/lib/server/competitions/competitions";
import { checkOpen } from "@/lib/server/competitions/lifecycle";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { scoringSeconds, submissionsTotal } from "@/lib/server/platform/metrics";
import { consumeRateLimit } from "@/lib/server/platform/rate-limit";
import type { SubmissionResult } from "@/lib/responses";
import { descriptionSchema, safeFilename } from "@/lib/validation/files";

/**
 * Scores a submission through the team's Thresholdout (docs/mechanism.md §2). Everything that can
 * reject the file happens first and spends nothing. Then, in one transaction holding a row lock on
 * the team: the competition is re-checked (still published, before its deadline) under a key-share
 * lock on its row that closing waits for; a repeated Idempotency-Key is answered (the first result
 * for the same file, 409 for another); the daily cap is checked (and a competition-wide holdout
 * cap, under the competition's row lock); the next query index is taken, Algorithm 1 stepped, and
 * the submission, the team's mechanism state and its leaderboard row (lib/mechanism/board.ts)
 * written together. Concurrent submissions of one team (on any number of app instances) are
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
