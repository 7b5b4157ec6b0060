import { randomBytes } from "node:crypto";
import { ensureBuilt, type RunningApp, startApp } from "./app";
import { freePort } from "./db/admin";
import { startTestDatabase } from "./db/database";
import { migrate } from "./db/migrate";

/**
 * Per-address limits for apps that tests and benchmarks drive: every simulated user comes from
 * 127.0.0.1, so the sign-up, sign-in and token limits per address are raised (the hostile tests
 * start apps with the real ones).
 */
export const HARNESS_LIMITS = {
  QUILTBOARD_LIMIT_SIGN_UP_IP: "1000000/3600",
  QUILTBOARD_LIMIT_SIGN_IN_IP: "1000000/3600",
  QUILTBOARD_LIMIT_TOKENS_IP: "1000000/3600",
  QUILTBOARD_LIMIT_CALIBRATE_IP: "1000000/60",
};

/** A throwaway database and `instances` app instances on it, for benchmarks and experiments over HTTP. */
export async function startHarness(instances = 1, verbose = false, options: { embedded?: boolean } = {}) {
  const database = await startTestDatabase(() => {}, options);
  await migrate(database.url);
  ensureBuilt(() => {});
  const env = { DATABASE_URL: database.url, NEXTAUTH_SECRET: randomBytes(32).toString("base64url"), ...HARNESS_LIMITS };
  const apps: RunningApp[] = [];
  for (let i = 0; i < instances; i++) apps.push(await startApp({ port: await freePort(), env, quiet: !verbose }));
  return {
    urls: apps.map((a) => a.url),
    databaseUrl: database.url,
    database,
    apps,
    env,
    stop: async () => {
      await Promise.all(apps.map((a) => a.stop()));
      await database.stop();
    },
  };
}

/**
 * A small client for the REST API. A request that carries an Idempotency-Key, or a GET, is retried
 * (up to 3 times) when the connection drops before an answer: the key makes the retry return the
 * first result instead of a second answer. (A client busy computing for longer than the server's
 * keep-alive timeout otherwise sends its next request on a socket the server has closed.) A 429
 * that names a wait is retried after it.
 */
export function client(base: string, auth: Record<string, string> = {}) {
  return async (path: string, init: { method?: string; json?: unknown; csv?: string; headers?: Record<string, string> } = {}) => {
    const method = init.method ?? (init.json !== undefined || init.csv !== undefined ? "POST" : "GET");
    const retryable = method === "GET" || Object.keys(init.headers ?? {}).some((h) => h.toLowerCase() === "idempotency-key");
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: {
            ...auth,
            ...(init.json !== undefined ? { "content-type": "application/json" } : {}),
            ...(init.csv !== undefined ? { "content-type": "text/csv" } : {}),
            ...init.headers,
          },
          body: init.json !== undefined ? JSON.stringify(init.json) : init.csv,
        });
        const body = await response.json();
        // A burst limit (not the daily cap) says when to come back: a polite client waits.
        const wait = response.status === 429 ? /try again in (\d+) s/.exec(body.error?.message ?? "") : null;
        if (wait && attempt < 5) {
          await new Promise((r) => setTimeout(r, (Number(wait[1]) + 1) * 1000));
          continue;
        }
        if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${JSON.stringify(body)}`);
        return body;
      } catch (error) {
        if (!(retryable && attempt < 3 && error instanceof TypeError && /fetch failed/.test(error.message))) throw error;
      }
    }
  };
}

/** Signs up a user and returns a Bearer-authenticated client, with its Authorization header. */
export async function harnessUser(base: string, name: string) {
  const email = `${name}-${randomBytes(4).toString("hex")}@harness.test`;
  const password = "benchmark password";
  await client(base)("/api/v1/users", { json: { email, password, name } });
  const { token } = await client(base, { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}` })("/api/v1/tokens", { json: { name: "bench" } });
  const authorization = `Bearer ${token}`;
  return Object.assign(client(base, { authorization }), { authorization });
}

/** A solution of n rows, half public, with binary class labels; and a predictions file for it (3 in 4 right). */
export function syntheticSolution(n: number): string {
  const lines = new Array<string>(n + 1);
  lines[0] = "id,label,split";
  for (let i = 0; i < n; i++) lines[i + 1] = `r${i},${i % 3 ? "a" : "b"},${i % 2 ? "public" : "holdout"}`;
  return lines.join("\n");
}

export function syntheticPredictions(n: number, seed: number): string {
  const lines = new Array<string>(n + 1);
  lines[0] = "id,prediction";
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const right = i % 3 ? "a" : "b";
    lines[i + 1] = `r${i},${x % 4 ? right : right === "a" ? "b" : "a"}`;
  }
  return lines.join("\n");
}
