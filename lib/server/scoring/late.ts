import "server-only";
import { randomUUID } from "node:crypto";
import { presentAnswer } from "./answer";
import type { MechanismScoring } from "./transaction";
import { db, lockTeam } from "@/lib/server/platform/db";
import { dailyLimits, refuseOverCap } from "@/lib/server/teams/daily-cap";
import { disqualifiedError } from "@/lib/server/teams/teams";
import type { SubmissionResult } from "@/lib/responses";

/**
 * A late submission (after the close, when the organizers allow them): answered with the exact
 * holdout score and recorded outside the mechanism (no budget spent, no query index), on the late
 * board; the final standings never change. It counts against the daily cap. Idempotency-Key is not
 * needed here: repeating a late submission spends nothing.
 */
export async function recordLate(late: Omit<MechanismScoring, "idempotencyKey" | "bounds">): Promise<SubmissionResult> {
  const { user, competition, metric, teamId, scored, file, now } = late;
  return db.$transaction(async (tx) => {
    await lockTeam(tx, teamId);
    const at = now ?? new Date();
    const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { disqualifiedAt: true, disqualifyReason: true, budgetRemaining: true, initialBudget: true } });
    if (team.disqualifiedAt) throw disqualifiedError(team.disqualifyReason);
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
        fileData: scored.kept.compressed,
      },
      select: { id: true, createdAt: true },
    });
    return {
      id: created.id,
      createdAt: created.createdAt.toISOString(),
      answer: presentAnswer(metric, competition.displayPrecision, { kind: "late", answer: scored.holdoutValue, publicValue: scored.publicValue }),
      budget: { remaining: team.budgetRemaining, initial: team.initialBudget },
    };
  });
}
