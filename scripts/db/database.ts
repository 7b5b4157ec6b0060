import { mkdtempSync, chmodSync, existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { createDatabaseIfMissing, dropDatabase } from "./admin";
import { embeddedPassword, startEmbeddedPostgres, type RunningDatabase } from "./embedded";

/**
 * The database of `npm start` and `npm run admin`: DATABASE_URL when set, else the embedded
 * PostgreSQL with its data under .data/postgres (kept between runs). When that server is already
 * running (another command started it), it is used as it is and `stop` leaves it running.
 */
export async function startAppDatabase(dataDir: string, log: (line: string) => void): Promise<RunningDatabase & { embedded: boolean }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {}, embedded: false };
  const running = runningEmbeddedPort(path.join(dataDir, "postgres"));
  const password = embeddedPassword(path.join(dataDir, "postgres"));
  if (running && password) return { url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${running}/quiltboard`, stop: async () => {}, embedded: true };
  const db = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "postgres"), database: "quiltboard", persistent: true, log });
  return { ...db, embedded: true };
}

/** The port of a live PostgreSQL on `dataDir`, from its postmaster.pid (line 1: pid, line 4: port). */
function runningEmbeddedPort(dataDir: string): number | null {
  const file = path.join(dataDir, "postmaster.pid");
  if (!existsSync(file)) return null;
  const [pid, , , port] = readFileSync(file, "utf8").split("\n");
  try {
    process.kill(Number(pid), 0);
  } catch {
    return null; // left behind by a server that is gone
  }
  return Number(port) || null;
}

/**
 * A throwaway database for tests, never the data of `npm start`: a fresh database on the server of
 * DATABASE_URL when set (unless `embedded` is asked for, e.g. to stop it in a fault test), else an
 * embedded PostgreSQL in a temporary directory. `stop` removes it.
 */
export async function startTestDatabase(log: (line: string) => void, options: { embedded?: boolean } = {}): Promise<RunningDatabase> {
  if (process.env.DATABASE_URL && !options.embedded) {
    const name = `quiltboard_test_${randomBytes(6).toString("hex")}`;
    const admin = new URL(process.env.DATABASE_URL);
    admin.pathname = "/postgres";
    await createDatabaseIfMissing(admin.toString(), name);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    return { url: url.toString(), stop: () => dropDatabase(admin.toString(), name) };
  }
  const dir = mkdtempSync(path.join(tmpdir(), "quiltboard-test-"));
  chmodSync(dir, 0o755); // the postgres system user must reach its data directory
  const db = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), database: "quiltboard_test", persistent: true, log });
  return {
    ...db,
    stop: async () => {
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
