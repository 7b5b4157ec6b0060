import "server-only";
import { z } from "zod";

/**
 * Quiltboard's configuration: every environment variable the app reads, each with its type, its
 * limits and its default, in one schema (as create-t3-app's env.ts does with zod). Code under lib/
 * and app/ reads the environment only through `env()` (ESLint refuses `process.env` anywhere else
 * there). The standalone server's entry (server/entry.ts, what `npm start`, `npm test` and
 * the image run) checks the whole environment before it migrates or serves, so a malformed value
 * stops the start with a message naming the variable and what it expects. The README's
 * configuration table lists the same variables with the same defaults (test/unit/env.test.ts holds
 * the two together).
 *
 * Values are read when they are used, not when a module loads (the log's level aside): `next build`
 * loads the server's modules without the deployment's variables, and `npm start` and the tests set
 * some before they call the code that reads them. `env()` parses again only when a variable changed.
 *
 * Nothing here reaches a browser: `server-only` keeps this module out of client bundles, and no
 * variable is NEXT_PUBLIC_*: Next.js would inline such a value into the client code when it builds,
 * before any check and where anyone can read it. A value a client component needs goes to it as a
 * prop from its server page.
 */

/**
 * One variable: what a valid value is (for messages), its default as the README states it, its
 * parser, and whether its value may hold a secret (then a message never repeats it).
 */
type Variable<T> = { expects: string; default: string; schema: z.ZodType<T, string | undefined>; secret?: true };

const number = (n: number) => n.toLocaleString("en-US");

/** A whole number from `min` to `max` (`what` names it: "a whole number of seconds"), `fallback` when unset. */
function whole(what: string, fallback: number, min: number, max: number): Variable<number> {
  return {
    expects: `${what} from ${number(min)} to ${number(max)}`,
    default: `\`${fallback}\``,
    schema: z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(min).max(max)).default(fallback),
  };
}

/** An abuse limit (lib/server/platform/rate-limit.ts): `count/seconds`, at most `count` attempts in `seconds`. */
function rate(fallback: `${number}/${number}`): Variable<{ limit: number; windowSeconds: number }> {
  const [limit, windowSeconds] = fallback.split("/").map(Number);
  return {
    expects: "count/seconds, e.g. 20/3600: at most 1,000,000,000 attempts in 1 to 31,536,000 s",
    default: "[SECURITY.md](SECURITY.md#abuse-limits)",
    schema: z
      .string()
      .regex(/^\d+\/\d+$/)
      .transform((value) => {
        const [count, seconds] = value.split("/").map(Number);
        return { limit: count, windowSeconds: seconds };
      })
      .pipe(z.object({ limit: z.number().int().max(1_000_000_000), windowSeconds: z.number().int().min(1).max(31_536_000) }))
      .default({ limit, windowSeconds }),
  };
}

/** A URL with one of `protocols` (it may hold a password); unset is allowed (`fallback` says who fills it in). */
function url(protocols: string[], example: string, fallback: string): Variable<string | undefined> {
  return {
    secret: true,
    expects: `a ${protocols.map((p) => `${p}//`).join(" or ")} URL, e.g. ${example}`,
    default: fallback,
    schema: z
      .string()
      .refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol))
      .optional(),
  };
}

/** A client id or secret of a sign-in provider: unset by default, and then that provider is off. */
function credential(what: string, secret?: true): Variable<string | undefined> {
  return { ...(secret ? { secret } : {}), expects: `${what} (up to 500 characters)`, default: "unset (off)", schema: z.string().max(500).optional() };
}

/** A switch: 1 (on) or 0 (off); unset is `fallback`, or undefined where the code decides (`fallbackText` says how). */
function flag(expects: string, fallbackText: string): Variable<boolean | undefined>;
function flag(expects: string, fallbackText: string, fallback: boolean): Variable<boolean>;
function flag(expects: string, fallbackText: string, fallback?: boolean): Variable<boolean | undefined> {
  const schema = z.enum(["0", "1"]).transform((value) => value === "1");
  return { expects, default: fallbackText, schema: fallback === undefined ? schema.optional() : schema.default(fallback) };
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** One OpenID Connect provider of QUILTBOARD_OIDC_PROVIDERS. */
const oidcProvider = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,31}$/)
    .refine((id) => !["credentials", "github", "google"].includes(id)),
  name: z.string().min(1).max(60),
  issuer: z.url({ protocol: /^https?$/ }),
  clientId: z.string().min(1).max(500),
  clientSecret: z.string().min(1).max(500),
  domains: z.array(z.string().toLowerCase().regex(DOMAIN)).max(100).default([]),
});
export type OidcProviderConfiguration = z.infer<typeof oidcProvider>;

const VARIABLES = {
  DATABASE_URL: url(["postgresql:", "postgres:"], "postgresql://user:password@host:5432/quiltboard", "the embedded PostgreSQL"),
  PORT: whole("a port number", 3000, 1, 65_535),
  NEXTAUTH_SECRET: {
    secret: true,
    expects: "at least 32 characters (32 random bytes, e.g. openssl rand -base64 32)",
    default: "generated once into `.data/nextauth-secret`",
    schema: z.string().min(32).optional(),
  },
  NEXTAUTH_URL: url(["http:", "https:"], "https://quiltboard.example.org", "`http://localhost:$PORT`"),
  TRUST_PROXY: whole("a whole number of proxies", 0, 0, 32),
  QUILTBOARD_DEMO: flag("1 (create the demo on an empty database) or 0 (never)", "`1` on the embedded database, else `0`"),
  QUILTBOARD_LIMIT_SIGN_UP_IP: rate("20/3600"),
  QUILTBOARD_LIMIT_SIGN_IN: rate("10/600"),
  QUILTBOARD_LIMIT_SIGN_IN_IP: rate("60/600"),
  QUILTBOARD_LIMIT_TOKENS: rate("20/3600"),
  QUILTBOARD_LIMIT_TOKENS_IP: rate("60/3600"),
  QUILTBOARD_LIMIT_CALIBRATE_IP: rate("60/60"),
  QUILTBOARD_LIMIT_VERIFICATION_MAIL: rate("3/3600"),
  QUILTBOARD_LIMIT_PASSWORD_RESET: rate("3/3600"),
  QUILTBOARD_LIMIT_PASSWORD_RESET_IP: rate("10/3600"),
  QUILTBOARD_LIMIT_SUBMISSIONS: rate("600/60"),
  QUILTBOARD_LIMIT_INVITATIONS: rate("20/3600"),
  QUILTBOARD_COMPUTE_SECONDS: whole("a whole number of seconds", 20, 1, 3600),
  QUILTBOARD_CLOSE_SECONDS: whole("a whole number of seconds", 30, 1, 3600),
  QUILTBOARD_UPLOADS: whole("a whole number of uploads", 4, 1, 1024),
  QUILTBOARD_UPLOADS_PER_USER: whole("a whole number of uploads", 2, 1, 1024),
  QUILTBOARD_PASSWORD_HASHES: whole("a whole number of hashes", 2, 1, 64),
  QUILTBOARD_BODY_MIN_RATE: whole("a whole number of bytes a second", 500, 1, 100_000_000),
  QUILTBOARD_UPLOAD_MIN_RATE: whole("a whole number of bytes a second", 65_536, 1024, 100_000_000),
  QUILTBOARD_EXPORTS: whole("a whole number of exports", 16, 1, 1024),
  QUILTBOARD_SOLUTION_CACHE_MB: whole("a whole number of MB", 512, 16, 1_048_576),
  QUILTBOARD_FILES: {
    expects: "local (the directory QUILTBOARD_FILES_DIR: one instance) or s3 (S3-compatible object storage, S3_*: any number of instances)",
    default: "`local`",
    schema: z.enum(["local", "s3"]).default("local"),
  },
  QUILTBOARD_FILES_DIR: {
    expects: "a directory (absolute, or relative to where the server runs)",
    default: "`.data/files`",
    schema: z.string().min(1).max(4096).default(".data/files"),
  },
  QUILTBOARD_DATA_FILE_BYTES: { ...whole("a whole number of bytes", 50 * 1024 ** 3, 1024, 5 * 1024 ** 4), default: "`53687091200` (50 GiB)" },
  QUILTBOARD_RESUMABLE_HOURS: whole("a whole number of hours", 24, 1, 720),
  QUILTBOARD_DATA_TOTAL_BYTES: { ...whole("a whole number of bytes", 200 * 1024 ** 3, 1024, 1024 ** 5), default: "`214748364800` (200 GiB)" },
  QUILTBOARD_ACCOUNT_DATA_BYTES: { ...whole("a whole number of bytes", 200 * 1024 ** 3, 1024, 1024 ** 5), default: "`214748364800` (200 GiB)" },
  QUILTBOARD_UNVERIFIED_DATA_BYTES: { ...whole("a whole number of bytes", 1024 ** 3, 0, 1024 ** 5), default: "`1073741824` (1 GiB)" },
  QUILTBOARD_FILES_FREE_BYTES: { ...whole("a whole number of bytes", 10 * 1024 ** 3, 0, 1024 ** 5), default: "`10737418240` (10 GiB)" },
  S3_BUCKET: {
    expects: "an S3 bucket's name (3 to 63 characters), required with QUILTBOARD_FILES=s3",
    default: "unset",
    schema: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)
      .optional(),
  },
  S3_ENDPOINT: url(["http:", "https:"], "https://s3.eu-central-1.amazonaws.com or http://minio:9000", "AWS S3 of S3_REGION"),
  S3_REGION: {
    expects: "a region name, e.g. eu-central-1 (auto for Cloudflare R2)",
    default: "`us-east-1`",
    schema: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/)
      .default("us-east-1"),
  },
  S3_ACCESS_KEY_ID: { ...credential("the access key id (with S3_SECRET_ACCESS_KEY; unset: the AWS SDK's default credentials)"), default: "unset" },
  S3_SECRET_ACCESS_KEY: { ...credential("that access key's secret", true), default: "unset" },
  S3_FORCE_PATH_STYLE: flag("1 (bucket in the path: MinIO, Ceph, most servers other than AWS) or 0 (bucket in the host name)", "`0`", false),
  SMTP_URL: url(["smtp:", "smtps:"], "smtps://user:password@smtp.example.com:465", "`npm start`'s local mail catcher"),
  MAIL_FROM: {
    expects: 'an address, alone or as "Name <address>"',
    default: "`Quiltboard <no-reply@quiltboard.invalid>`",
    schema: z
      .string()
      .regex(/^(?:[^<>@]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/)
      .default("Quiltboard <no-reply@quiltboard.invalid>"),
  },
  GITHUB_CLIENT_ID: credential("a GitHub OAuth app's client id (with GITHUB_CLIENT_SECRET: sign-in with GitHub)"),
  GITHUB_CLIENT_SECRET: credential("that GitHub OAuth app's client secret", true),
  GOOGLE_CLIENT_ID: credential("a Google OAuth client's id (with GOOGLE_CLIENT_SECRET: sign-in with Google)"),
  GOOGLE_CLIENT_SECRET: credential("that Google OAuth client's secret", true),
  QUILTBOARD_OIDC_PROVIDERS: {
    secret: true,
    expects:
      'a JSON array of up to 20 OpenID Connect providers, each {"id": "lab" (a-z, 0-9, -; not github, google or credentials; each once), "name", "issuer": "https://…", "clientId", "clientSecret", "domains"?: ["lab.example.org"]}',
    default: "unset (none)",
    schema: z
      .string()
      .transform((value, context) => {
        try {
          return JSON.parse(value) as unknown;
        } catch {
          context.addIssue({ code: "custom", message: "not JSON" });
          return z.NEVER;
        }
      })
      .pipe(
        z
          .array(oidcProvider)
          .max(20)
          .refine((list) => new Set(list.map((p) => p.id)).size === list.length),
      )
      .optional(),
  },
  QUILTBOARD_PASSWORD_SIGNUP: flag("1 (anyone may create an account with a password) or 0 (only through a sign-in provider)", "`1`", true),
  QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE: flag("1 (webhooks may go to private, loopback and link-local addresses) or 0 (refused)", "`0`", false),
  METRICS_TOKEN: { secret: true, expects: "any text: the bearer token of GET /api/metrics", default: "unset (metrics off)", schema: z.string().optional() },
  LOG_LEVEL: {
    expects: "one of trace, debug, info, warn, error, fatal, silent",
    default: "`info`",
    schema: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
  },
} satisfies Record<string, Variable<unknown>>;

type Variables = typeof VARIABLES;
export type VariableName = keyof Variables;
type Parsed = { [K in VariableName]: z.output<Variables[K]["schema"]> };
/** Variables without which the server does not run (`required`), and how to set each. */
const REQUIRED = {
  DATABASE_URL: "point it at PostgreSQL 15 or newer, e.g. postgresql://user:password@host:5432/quiltboard",
  NEXTAUTH_SECRET: "it signs the session cookies; use 32 random bytes, e.g. openssl rand -base64 32",
} satisfies Partial<Record<VariableName, string>>;
/** The environment as the code reads it: each variable parsed, with its default; NEXTAUTH_URL's is http://localhost:$PORT. */
export type Env = Omit<Parsed, "NEXTAUTH_URL"> & { NEXTAUTH_URL: string };
export type RateLimitVariable = Extract<VariableName, `QUILTBOARD_LIMIT_${string}`>;

/** Each variable's name, what it expects and its default as the README states it, for the docs' tests. */
export const CONFIGURATION = Object.entries(VARIABLES).map(([name, v]) => ({ name: name as VariableName, expects: v.expects, default: v.default }));

const NAMES = Object.keys(VARIABLES) as VariableName[];

/** A malformed or missing variable: the message names it and says what it expects. */
export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "ConfigurationError";
  }
}

/** One variable's raw value: unset when empty or only spaces (a compose file's `X: ${X:-}`), else trimmed. */
function raw(source: Record<string, string | undefined>, name: VariableName): string | undefined {
  const value = source[name]?.trim();
  return value === "" ? undefined : value;
}

/**
 * Every problem with `source`, each naming its variable, its value (`<hidden>` for one that may hold
 * a secret) and what it expects; empty when there is none. `required` lists the variables that must
 * be set too.
 */
export function environmentProblems(source: Record<string, string | undefined>, required: (keyof typeof REQUIRED)[] = []): string[] {
  const problems: string[] = [];
  for (const name of required) if (raw(source, name) === undefined) problems.push(`${name} is not set: ${REQUIRED[name]}`);
  for (const name of NAMES) {
    const value = raw(source, name);
    const variable: Variable<unknown> = VARIABLES[name];
    if (!variable.schema.safeParse(value).success) problems.push(`${name}=${variable.secret ? "<hidden>" : JSON.stringify(value)}: expected ${variable.expects}`);
  }
  if (raw(source, "QUILTBOARD_FILES") === "s3" && raw(source, "S3_BUCKET") === undefined) problems.push("S3_BUCKET is not set: QUILTBOARD_FILES=s3 keeps the files in that bucket");
  return problems;
}

/**
 * At a start (the entry, `npm start`, the server's register()): each problem with the environment
 * on stderr, one a line after `prefix`, and the process ends with exit code 2; nothing when there
 * is none.
 */
export function exitIfMisconfigured(required: (keyof typeof REQUIRED)[], prefix = ""): void {
  const problems = environmentProblems(process.env, required);
  if (!problems.length) return;
  console.error(problems.map((problem) => `${prefix}${problem}`).join("\n"));
  process.exit(2);
}

/** `source` parsed, or a ConfigurationError listing every problem. */
export function parseEnvironment(source: Record<string, string | undefined>): Env {
  const problems = environmentProblems(source);
  if (problems.length) throw new ConfigurationError(problems);
  const parsed = Object.fromEntries(NAMES.map((name) => [name, VARIABLES[name].schema.parse(raw(source, name))])) as Parsed;
  return { ...parsed, NEXTAUTH_URL: parsed.NEXTAUTH_URL ?? `http://localhost:${parsed.PORT}` };
}

let cache: { raw: (string | undefined)[]; values: Env } | undefined;

/** The validated environment as it is now; throws a ConfigurationError naming each malformed variable. */
export function env(): Env {
  const now = NAMES.map((name) => process.env[name]);
  if (!cache || cache.raw.some((value, i) => value !== now[i])) cache = { raw: now, values: parseEnvironment(process.env) };
  return cache.values;
}

/** A variable the server cannot run without: its value, or a ConfigurationError saying how to set it. */
export function required(name: keyof typeof REQUIRED): string {
  const value = env()[name];
  if (value === undefined) throw new ConfigurationError([`${name} is not set: ${REQUIRED[name]}`]);
  return value;
}

/**
 * Set by Next.js when it builds the server (it replaces these expressions with constants), not by an
 * operator: whether the code runs inside Next's bundle (NEXT_RUNTIME; unset when tsx runs the
 * sources, as the demo seed and the tests do), and whether it is a development server.
 */
export const INSIDE_NEXT = Boolean(process.env.NEXT_RUNTIME);
export const DEVELOPMENT = process.env.NODE_ENV === "development";
