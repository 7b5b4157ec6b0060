import { randomBytes } from "node:crypto";
import { ensureBuilt, type RunningApp, startApp } from "./app";
import { freePort } from "./db/admin";
import { startTestDatabase } from "./db/database";
import { migrate } from "../server/migrate";

/**
 * Per-address limits for apps that tests and benchmarks drive: every simulated user comes from
 * 127.0.0.1, so the sign-up, sign-in and token limits per address are raised (the hostile tests
 * start apps with the real ones).
 */
export const HARNESS_LIMITS = {
  QUILTBOARD_LIMIT_SIGN_UP_IP: "1000000/3600",
  QUILTBOARD_LIMIT_SIGN_IN_IP: "1000000/3600",
  QUILTBOARD_LIMIT_TOKENS_IP: "1000000/3600",
  QUILTBOARD_LIMIT_PASSWORD_RESET_IP: "1000000/3600",
  QUILTBOARD_LIMIT_CALIBRATE_IP: "1000000/60",
};

/** A throwaway database and `instances` app instances on it (with `options.env` added to their environment), for benchmarks and experiments over HTTP. */
export async function startHarness(instances = 1, verbose = false, options: { embedded?: boolean; env?: Record<string, string> } = {}) {
  const database = await startTestDatabase(() => {}, options);
  const env = { DATABASE_URL: database.url, NEXTAUTH_SECRET: randomBytes(32).toString("base64url"), ...HARNESS_LIMITS, ...options.env };
  const apps: RunningApp[] = [];
  try {
    await migrate(database.url);
    ensureBuilt(() => {});
    for (let i = 0; i < instances; i++) apps.push(await startApp({ port: await freePort(), env, quiet: !verbose }));
  } catch (error) {
    // A harness that did not start leaves nothing running behind it: the apps started and the database stop.
    await Promise.all(apps.map((a) => a.stop()));
    await database.stop();
    throw error;
  }
  return {
    urls: apps.map((a) => a.url),
    databaseUrl: database.url,
    database,
    apps,
    env,
    /** Stops app `i` and starts a fresh process in its place, on the same port. */
    restart: async (i = 0) => {
      await apps[i].stop();
      apps[i] = await startApp({ port: Number(new URL(apps[i].url).port), env, quiet: !verbose });
    },
    stop: async () => {
      await Promise.all(apps.map((a) => a.stop()));
      await database.stop();
    },
  };
}
