import "server-only";
import { AppError } from "@/lib/server/platform/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import type { DailyLimits } from "@/lib/responses";

/** The UTC day that contains `at`: its start, and the next midnight when the count resets. */
function utcDay(at: Date): { start: Date; resetsAt: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  return { start, resetsAt: new Date(start.getTime() + 86_400_000) };
}

/**
 * SQL for the number of the team's submissions on the UTC day of `at` (an SQL `timestamp` in UTC,
 * as they are stored), scored and late together (late submissions count against the same cap);
 * answers past the competition's m ("limit") were not scored and do not count. `team` is the team's id as SQL (a parameter, or a column of the statement it is part of). The
 * scoring transaction embeds it in the statement that follows the team's lock, with the time the
 * lock was taken; submit.ts in the check before an upload is read.
 */
export function usedTodaySql(team: Prisma.Sql, at: Prisma.Sql): Prisma.Sql {
  const today = Prisma.sql`created_at >= date_trunc('day', ${at}) AND created_at < date_trunc('day', ${at}) + interval '1 day'`;
  return Prisma.sql`((SELECT count(*) FROM submissions WHERE team_id = ${team} AND kind <> 'limit' AND ${today})
    + (SELECT count(*) FROM unranked_submissions WHERE team_id = ${team} AND ${today}))::int`;
}

/** The daily cap at `at` for a team that has used `usedToday` of it. */
export function limitsOf(dailyLimit: number, usedToday: number, at: Date): DailyLimits {
  return { dailyLimit, usedToday, remainingToday: Math.max(0, dailyLimit - usedToday), resetsAt: utcDay(at).resetsAt.toISOString() };
}

/** The team's use of its daily cap at `at`, read through `client` (a transaction reads it under the team's lock). */
export async function dailyLimits(client: Pick<Prisma.TransactionClient, "$queryRaw">, teamId: string, dailyLimit: number, at: Date): Promise<DailyLimits> {
  const [{ used }] = await client.$queryRaw<{ used: number }[]>`SELECT ${usedTodaySql(Prisma.sql`${teamId}::uuid`, Prisma.sql`${at.toISOString()}::timestamp`)} AS used`;
  return limitsOf(dailyLimit, used, at);
}

/** 429 with Retry-After (seconds to the reset) when the team has no submission left today. */
export function refuseOverCap(limits: DailyLimits, at: Date): void {
  if (limits.remainingToday > 0) return;
  const retryAfter = Math.ceil((Date.parse(limits.resetsAt) - at.getTime()) / 1000);
  throw new AppError("rate_limited", `your team has used its ${limits.dailyLimit} submissions for today (UTC); the count resets at midnight UTC`, { retryAfter });
}
