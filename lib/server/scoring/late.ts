import "server-only";
import { presentAnswer } from "./answer";
import { type MechanismScoring, scoredEvent } from "./transaction";
import { queueEvent } from "@/lib/server/competitions/webhooks";
import { db, lockTeam } from "@/lib/server/platform/db";
import { dailyLimits, refuseOverCap } from "@/lib/server/teams/daily-cap";
import { disqualifiedError } from "@/lib/server/teams/teams";
import type { SubmissionResult } from "@/lib/responses";

/**
 * A late submission (after the close, when the organizers allow them): answered with the exact
 * holdout score and recorded outside the mechanism (no budget spent, no query index), on the late
 * board; the final standings never change. It counts against the daily cap. Idempotency-Key is not
 * needed here: repeating a late submission spends nothing. Its file is already in the store
 * (`kept`, files.ts keepSubmissionFile). Its `submission.scored` webhook event is queued in the same
 * transaction (`queued`: the outbox rows to `deliver` once committed).
 */
export async function recordLate(late: Omit<MechanismScoring, "idempotencyKey" | "bounds">): Promise<{ result: SubmissionResult; queued: string[] }> {
  const { user, competition, metric, teamId, scored, file, kept, now } = late;
  return db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    const at = now ?? new Date();
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { disqualifiedAt: true, disqualifyReason: true, budgetRemaining: true, initialBudget: true } });
    if (team.disqualifiedAt) throw disqualifiedError(team.disqualifyReason);
    refuseOverCap(await dailyLimits(tx, teamId, competition.dailySubmissionLimit, at), at);
    const created = await tx.unrankedSubmission.create({
      data: {
        id: kept.id,
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
        storageKey: kept.storageKey,
      },
      select: { id: true, createdAt: true },
    });
    const result = {
      id: created.id,
      createdAt: created.createdAt.toISOString(),
      answer: presentAnswer(metric, competition.displayPrecision, { kind: "late", answer: scored.holdoutValue, publicValue: scored.publicValue }),
      budget: { remaining: team.budgetRemaining, initial: team.initialBudget },
    };
    return { result, queued: await queueEvent(tx, competition, scoredEvent(result, teamId, true)) };
  });
}
