import "server-only";
import { createHash } from "node:crypto";
import { db } from "./db";
import { AppError } from "./errors";
import { hasNul } from "@/lib/validation/text";

/**
 * The abuse limits: attempts per window, per account and per client address. Each can be changed
 * with an environment variable QUILTBOARD_LIMIT_<NAME>=<count>/<seconds>, e.g.
 * QUILTBOARD_LIMIT_SIGN_UP_IP=20/3600. The client address is the one scripts/http-preload.mjs
 * resolves (the socket's, or with TRUST_PROXY the proxy's X-Forwarded-For).
 */
const DEFAULTS = {
  signIn: { limit: 10, windowSeconds: 600, what: "wrong passwords for this account from your address" },
  signInIp: { limit: 60, windowSeconds: 600, what: "sign-in attempts from your address" },
  signUpIp: { limit: 20, windowSeconds: 3600, what: "new accounts from your address" },
  tokens: { limit: 20, windowSeconds: 3600, what: "new API tokens" },
  tokensIp: { limit: 60, windowSeconds: 3600, what: "new API tokens from your address" },
  calibrateIp: { limit: 60, windowSeconds: 60, what: "calibrations from your address" },
  verificationMail: { limit: 3, windowSeconds: 3600, what: "verification mails" },
  passwordReset: { limit: 3, windowSeconds: 3600, what: "password resets for this address" },
  passwordResetIp: { limit: 10, windowSeconds: 3600, what: "password resets from your address" },
  submissions: { limit: 600, windowSeconds: 60, what: "submissions" },
  invitations: { limit: 20, windowSeconds: 3600, what: "invitations to organize" },
};

export type LimitName = keyof typeof DEFAULTS;

function configured(name: LimitName): (typeof DEFAULTS)[LimitName] {
  const variable = `QUILTBOARD_LIMIT_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
  const value = process.env[variable];
  if (!value) return DEFAULTS[name];
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  if (!match || Number(match[2]) === 0) throw new Error(`${variable} must be <count>/<seconds>, e.g. 20/3600; found "${value}"`);
  return { ...DEFAULTS[name], limit: Number(match[1]), windowSeconds: Number(match[2]) };
}

export const LIMITS = Object.fromEntries(Object.keys(DEFAULTS).map((name) => [name, configured(name as LimitName)])) as typeof DEFAULTS;

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
  const { limit, windowSeconds, what } = LIMITS[kind];
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
