import "server-only";
import { db } from "./db";
import { AppError } from "./errors";

/** The limits: attempts per window. Sign-in counts per email, tokens and submissions per user. */
export const LIMITS = {
  signIn: { limit: 10, windowSeconds: 600, what: "sign-in attempts for this account" },
  tokens: { limit: 20, windowSeconds: 3600, what: "new API tokens" },
  submissions: { limit: 600, windowSeconds: 60, what: "submissions" },
} as const;

/**
 * Counts one attempt against `key` in a fixed window, atomically in one statement (so concurrent
 * requests on any number of app instances count exactly), and throws 429 past the limit with the
 * time to wait.
 */
export async function consumeRateLimit(kind: keyof typeof LIMITS, subject: string): Promise<void> {
  const { limit, windowSeconds, what } = LIMITS[kind];
  const key = `${kind}:${subject}`;
  const [row] = await db.$queryRaw<{ count: number; window_start: Date }[]>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) THEN 1 ELSE rate_limits.count + 1 END,
      window_start = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE rate_limits.window_start END
    RETURNING count, window_start`;
  if (row.count > limit) {
    const wait = Math.max(1, Math.ceil((row.window_start.getTime() + windowSeconds * 1000 - Date.now()) / 1000));
    throw new AppError("rate_limited", `too many ${what}: at most ${limit} per ${windowSeconds / 60} minutes; try again in ${wait} s`);
  }
}
