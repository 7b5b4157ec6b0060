import "server-only";
import { createHash } from "node:crypto";
import { db } from "./db";
import { env, type RateLimitVariable } from "./env";
import { AppError } from "./errors";
import { hasNul } from "@/lib/validation/text";

/**
 * The abuse limits: attempts per window, per account and per client address. Each is set by its
 * variable QUILTBOARD_LIMIT_<NAME>=<count>/<seconds> (lib/server/platform/env.ts holds the
 * defaults), e.g. QUILTBOARD_LIMIT_SIGN_UP_IP=20/3600. The client address is the one
 * server/http-preload.mjs resolves (the socket's, or with TRUST_PROXY the proxy's X-Forwarded-For).
 */
const LIMITS = {
  signIn: { variable: "QUILTBOARD_LIMIT_SIGN_IN", what: "wrong passwords for this account from your address" },
  signInIp: { variable: "QUILTBOARD_LIMIT_SIGN_IN_IP", what: "sign-in attempts from your address" },
  signUpIp: { variable: "QUILTBOARD_LIMIT_SIGN_UP_IP", what: "new accounts from your address" },
  tokens: { variable: "QUILTBOARD_LIMIT_TOKENS", what: "new API tokens" },
  tokensIp: { variable: "QUILTBOARD_LIMIT_TOKENS_IP", what: "new API tokens from your address" },
  calibrateIp: { variable: "QUILTBOARD_LIMIT_CALIBRATE_IP", what: "calibrations from your address" },
  verificationMail: { variable: "QUILTBOARD_LIMIT_VERIFICATION_MAIL", what: "verification mails" },
  passwordReset: { variable: "QUILTBOARD_LIMIT_PASSWORD_RESET", what: "password resets for this address" },
  passwordResetIp: { variable: "QUILTBOARD_LIMIT_PASSWORD_RESET_IP", what: "password resets from your address" },
  submissions: { variable: "QUILTBOARD_LIMIT_SUBMISSIONS", what: "submissions" },
  invitations: { variable: "QUILTBOARD_LIMIT_INVITATIONS", what: "invitations to organize" },
} satisfies Record<string, { variable: RateLimitVariable; what: string }>;

export type LimitName = keyof typeof LIMITS;

/** The limit `kind` counts against, as configured now: at most `limit` attempts in `windowSeconds`. */
export function limitOf(kind: LimitName): { limit: number; windowSeconds: number; what: string } {
  return { ...env()[LIMITS[kind].variable], what: LIMITS[kind].what };
}

/** Every limit's variable, for the test that each variable of the schema is one limit's. */
export const LIMIT_VARIABLES: RateLimitVariable[] = Object.values(LIMITS).map((l) => l.variable);

/** The client's address for per-address limits; "unknown" (one shared bucket) without the preload. */
export function clientAddress(request: { headers: Headers | Record<string, string | string[] | undefined> }): string {
  const value = request.headers instanceof Headers ? request.headers.get("x-quiltboard-client") : request.headers["x-quiltboard-client"];
  return (Array.isArray(value) ? value[0] : value) || "unknown";
}

/** The row key of `subject`'s counter: the subject itself, or its SHA-256 when it is long (a 6 KB "email") or holds what no text may (a NUL). */
function keyOf(kind: LimitName, subject: string): string {
  return `${kind}:${subject.length > 128 || hasNul(subject) ? createHash("sha256").update(subject).digest("hex") : subject}`;
}

/**
 * Counts one attempt against `subject` in a fixed window, atomically in one statement (so concurrent
 * requests on any number of app instances count exactly), and throws 429 past the limit with the
 * time to wait.
 */
export async function consumeRateLimit(kind: LimitName, subject: string): Promise<void> {
  const { limit, windowSeconds, what } = limitOf(kind);
  const key = keyOf(kind, subject);
  const [row] = await db.$queryRaw<{ count: number; window_start: Date }[]>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) THEN 1 ELSE rate_limits.count + 1 END,
      window_start = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE rate_limits.window_start END
    RETURNING count, window_start`;
  if (row.count > limit) {
    const wait = Math.max(1, Math.ceil((row.window_start.getTime() + windowSeconds * 1000 - Date.now()) / 1000));
    const window = windowSeconds % 60 === 0 ? `${windowSeconds / 60} minutes` : `${windowSeconds} s`;
    throw new AppError("rate_limited", `too many ${what}: at most ${limit} per ${window}; try again in ${wait} s`, { retryAfter: wait });
  }
}

/**
 * Gives back an attempt `consumeRateLimit` counted, for limits that count failures only (a right
 * password). Counting first and giving back after keeps concurrent attempts exact: a burst of
 * guesses is counted before any of them is checked.
 */
export async function refundRateLimit(kind: LimitName, subject: string): Promise<void> {
  await db.$executeRaw`UPDATE rate_limits SET count = count - 1 WHERE key = ${keyOf(kind, subject)} AND count > 0`;
}
