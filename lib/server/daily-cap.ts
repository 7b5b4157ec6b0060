import "server-only";
import { AppError } from "./errors";
import type { Prisma } from "@/lib/generated/prisma/client";

/** A team's daily submissions (GET …/team `limits`): the cap counts per UTC day. */
export type DailyLimits = { dailyLimit: number; usedToday: number; remainingToday: number; resetsAt: string };

/**
 * The team's use of its daily cap at `at` (scored and late submissions together), read through
 * `client` (the scoring transaction reads it under the team's lock). The day is the UTC date; the count resets at the next midnight UTC.
 */
export async function dailyLimits(client: Pick<Prisma.TransactionClient, "$queryRaw">, teamId: string, dailyLimit: number, at: Date): Promise<DailyLimits> {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const resetsAt = new Date(start.getTime() + 86_400_000);
  // Late submissions (after the close) count against the same cap. One round trip: this runs in
  // every scoring transaction. Timestamps are stored in UTC without a zone, hence the casts.
  const [{ used }] = await client.$queryRaw<{ used: number }[]>`
    SELECT ((SELECT count(*) FROM submissions WHERE team_id = ${teamId}::uuid AND created_at >= ${start.toISOString()}::timestamp AND created_at < ${resetsAt.toISOString()}::timestamp)
          + (SELECT count(*) FROM unranked_submissions WHERE team_id = ${teamId}::uuid AND created_at >= ${start.toISOString()}::timestamp AND created_at < ${resetsAt.toISOString()}::timestamp))::int AS used`;
  return { dailyLimit, usedToday: used, remainingToday: Math.max(0, dailyLimit - used), resetsAt: resetsAt.toISOString() };
}

/** 429 with Retry-After (seconds to the reset) when the team has no submission left today. */
export function refuseOverCap(limits: DailyLimits, at: Date): void {
  if (limits.remainingToday > 0) return;
  const retryAfter = Math.ceil((Date.parse(limits.resetsAt) - at.getTime()) / 1000);
  throw new AppError("rate_limited", `your team has used its ${limits.dailyLimit} submissions for today (UTC); the count resets at midnight UTC`, { retryAfter });
}
