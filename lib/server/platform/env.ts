import "server-only";
import { z } from "zod";

/** A whole number from `min` to `max`, `fallback` when unset or empty; anything else is an error naming what was found. */
function wholeNumber(fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === "") return fallback;
      const n = Number(value);
      if (Number.isInteger(n) && n >= min && n <= max) return n;
      context.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}; found "${value}"` });
      return z.NEVER;
    });
}

// The server's environment, validated once. scripts/start.ts fills in DATABASE_URL (the embedded
// database) and NEXTAUTH_SECRET (kept under .data/) when they are not set.
const schema = z.object({
  DATABASE_URL: z.string().url({ message: "DATABASE_URL must be a postgresql:// URL" }),
  NEXTAUTH_SECRET: z.string().min(32, { message: "NEXTAUTH_SECRET must be at least 32 characters" }),
  NEXTAUTH_URL: z.string().url().optional(),
  /** uploads this app instance reads at once (platform/uploads.ts); more wait */
  QUILTBOARD_UPLOADS: wholeNumber(4, 1, 1024),
  /** uploads one account may have in progress at once over every instance (platform/uploads.ts) */
  QUILTBOARD_UPLOADS_PER_USER: wholeNumber(2, 1, 1024),
  /** bytes a second an upload must keep arriving at while it holds its slots (platform/api.ts uploadPace) */
  QUILTBOARD_UPLOAD_MIN_RATE: wholeNumber(64 * 1024, 1024, 1024 * 1024 * 1024),
  /** bytes a second any other request body must keep arriving at (platform/api.ts bodyPace) */
  QUILTBOARD_BODY_MIN_RATE: wholeNumber(500, 1, 1024 * 1024 * 1024),
  /** MB of decoded solutions (and their scoring indexes) one process keeps (competitions/solution-cache.ts) */
  QUILTBOARD_SOLUTION_CACHE_MB: wholeNumber(512, 16, 1024 * 1024),
  /** leaderboard CSV exports this app instance sends at once (boards/leaderboard.ts); more get 503 */
  QUILTBOARD_EXPORTS: wholeNumber(16, 1, 1024),
});

export type Env = z.infer<typeof schema>;

let parsed: Env | undefined;

/** The validated environment, read at first use (never when a module loads: `next build` loads server modules without one). */
export function env(): Env {
  if (!parsed) {
    const result = schema.safeParse(process.env);
    if (!result.success) throw new Error(`Invalid environment: ${result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    parsed = result.data;
  }
  return parsed;
}
