import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { STANDALONE } from "@/scripts/app";
import { freePort } from "@/scripts/db/admin";
import { dropFreshDatabases, freshDatabase } from "./helpers";

// A malformed variable stops the start, as an operator meets it: the image's entry (node entry.mjs)
// and `npm start` exit with code 2 and a message naming each variable and what it expects, before
// they touch the database (lib/server/platform/env.ts is the schema both check).

afterAll(dropFreshDatabases);

const MALFORMED = { QUILTBOARD_CLOSE_SECONDS: "abc", QUILTBOARD_COMPUTE_SECONDS: "abc", QUILTBOARD_UPLOADS: "0" };
const MESSAGES = [
  'QUILTBOARD_COMPUTE_SECONDS="abc": expected a whole number of seconds from 1 to 3,600',
  'QUILTBOARD_CLOSE_SECONDS="abc": expected a whole number of seconds from 1 to 3,600',
  'QUILTBOARD_UPLOADS="0": expected a whole number of uploads from 1 to 1,024',
];

/** Whether anything was migrated into `url` (Prisma's bookkeeping table exists). */
async function migrated(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS found")).rows[0].found;
  } finally {
    await client.end();
  }
}

describe("a malformed variable stops the start", () => {
  it("node entry.mjs: exit 2 naming every malformed variable, the database untouched", async () => {
    const database = await freshDatabase("config", false);
    const result = spawnSync(process.execPath, ["entry.mjs"], {
      cwd: STANDALONE,
      env: { ...process.env, DATABASE_URL: database, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET, ...MALFORMED },
      encoding: "utf8",
      timeout: 60_000, // the code before started serving, and would never have exited
    });
    expect({ code: result.status, stderr: result.stderr }).toEqual({ code: 2, stderr: `${MESSAGES.join("\n")}\n` });
    expect(await migrated(database)).toBe(false);
  });

  it("node server.js (Next's own server, started without the entry): exit 2 naming them, not a server left running half-configured", async () => {
    const result = spawnSync(process.execPath, ["server.js"], {
      cwd: STANDALONE,
      env: { ...process.env, PORT: String(await freePort()), HOSTNAME: "127.0.0.1", ...MALFORMED },
      encoding: "utf8",
      timeout: 60_000, // Next logged the scheduler's error and kept serving
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${MESSAGES.join("\n")}\n`);
  });

  it("npm start: exit 2 naming the variables, before it starts a database or the app", async () => {
    const database = await freshDatabase("config", false);
    const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], {
      env: { ...process.env, DATABASE_URL: database, ...MALFORMED },
      encoding: "utf8",
      timeout: 90_000,
    });
    expect({ code: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: `${MESSAGES.map((m) => `[quiltboard] ${m}`).join("\n")}\n`,
    });
    expect(await migrated(database)).toBe(false);
  });
});
