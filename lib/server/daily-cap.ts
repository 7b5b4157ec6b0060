import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";

/** A team's daily submissions (GET …/team `limits`): the cap counts per UTC day. */
export type DailyLimits = { dailyLimit: number; usedToday: number; remainingToday: number; resetsAt: string };

/**
 * The team's use of its daily cap at `at`, read through `client` (the scoring transaction reads it
 * under the team's lock). The day is the UTC date; the count resets at the next midnight UTC.
 */
export async function dailyLimits(client: Pick<Prisma.TransactionClient, "submission">, teamId: string, dailyLimit: number, at: Date): Promise<DailyLimits> {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const resetsAt = new Date(start.getTime() + 86_400_000);
  const usedToday = await client.submission.count({ where: { teamId, createdAt: { gte: start, lt: resetsAt } } });
  return { dailyLimit, usedToday, remainingToday: Math.max(0, dailyLimit - usedToday), resetsAt: resetsAt.toISOString() };
}
