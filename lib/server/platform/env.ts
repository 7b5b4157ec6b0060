import "server-only";
import { z } from "zod";

// The server's environment, validated once. scripts/start.ts fills in DATABASE_URL (the embedded
// database) and NEXTAUTH_SECRET (kept under .data/) when they are not set.
const schema = z.object({
  DATABASE_URL: z.string().url({ message: "DATABASE_URL must be a postgresql:// URL" }),
  NEXTAUTH_SECRET: z.string().min(32, { message: "NEXTAUTH_SECRET must be at least 32 characters" }),
  NEXTAUTH_URL: z.string().url().optional(),
});

let parsed: z.infer<typeof schema> | undefined;

export function env(): z.infer<typeof schema> {
  if (!parsed) {
    const result = schema.safeParse(process.env);
    if (!result.success) throw new Error(`Invalid environment: ${result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
    parsed = result.data;
  }
  return parsed;
}

/** A limit set by an environment variable: a whole number ≥ 1, `fallback` when unset; a clear error for anything else. */
export function limitFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1; found "${value}"`);
  return n;
}
