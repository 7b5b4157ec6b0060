import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, closeSync, cpSync, existsSync, openSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import { packCli } from "./cli/build";
import { packPython } from "./python-package";

const ROOT = process.cwd();
export const DATA_DIR = path.join(ROOT, ".data");
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");

/** What a production build depends on; a change to any of these triggers `next build`. */
const BUILD_INPUTS = [
  "app",
  "lib",
  "types",
  "public",
  "instrumentation.ts",
  "package-lock.json",
  "next.config.js",
  "postcss.config.mjs",
  "tsconfig.json",
  "prisma/schema.prisma",
  "prisma/migrations",
  "scripts/http-preload.mjs",
  "scripts/server-entry.ts",
  "scripts/admin-command.ts",
  "scripts/terminal.ts",
  "scripts/db/migrate.ts",
];
const BUILD_STAMP = path.join(ROOT, ".next", "quiltboard-build-stamp");

function hashInputs(): string {
  const hash = createHash("sha256");
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      for (const entry of readdirSync(p).sort()) visit(path.join(p, entry));
    } else {
      hash.update(path.relative(ROOT, p));
      hash.update(readFileSync(p));
    }
  };
  for (const input of BUILD_INPUTS) visit(path.join(ROOT, input));
  return hash.digest("hex");
}

/** Next's standalone server (next.config.js `output`): what the Docker image runs, and what npm start and npm test run. */
export const STANDALONE = path.join(ROOT, ".next", "standalone");

/**
 * Runs `next build` unless the last build was made from exactly these sources, then completes the
 * standalone server with what Next leaves to the deployment (the static assets and public/) and
 * what Quiltboard adds: the migrations, the HTTP preload and the entry (scripts/server-entry.ts).
 * Either way the clients' packages are current in its public directory: the `quiltboard` command's
 * (/quiltboard-cli.tgz, scripts/cli/build.ts) and the Python client's (/quiltboard-python.tar.gz,
 * scripts/python-package.ts).
 */
export function ensureBuilt(log: (line: string) => void): void {
  const stamp = hashInputs();
  if (existsSync(path.join(ROOT, ".next", "BUILD_ID")) && existsSync(BUILD_STAMP) && readFileSync(BUILD_STAMP, "utf8") === stamp) {
    packClients();
    log("build is up to date");
    return;
  }
  log("building the app (next build) — the first time takes a minute or two…");
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error("next build failed (see above)");
  cpSync(path.join(ROOT, ".next", "static"), path.join(STANDALONE, ".next", "static"), { recursive: true });
  if (existsSync(path.join(ROOT, "public"))) cpSync(path.join(ROOT, "public"), path.join(STANDALONE, "public"), { recursive: true });
  cpSync(path.join(ROOT, "prisma", "migrations"), path.join(STANDALONE, "prisma", "migrations"), { recursive: true });
  cpSync(path.join(ROOT, "scripts", "http-preload.mjs"), path.join(STANDALONE, "http-preload.mjs"));
  // The entry (scripts/server-entry.ts) as one file; pg, Prisma's client and pino come from the
  // standalone node_modules, the rest (the migrator, the account code it shares with the app) is bundled.
  buildSync({
    entryPoints: [path.join(ROOT, "scripts", "server-entry.ts")],
    outfile: path.join(STANDALONE, "entry.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22.15", // package.json's engines
    conditions: ["react-server"],
    external: ["pg", "@prisma/client", "pino"],
    banner: { js: 'import { createRequire as quiltboardRequire } from "node:module"; const require = quiltboardRequire(import.meta.url);' },
    logLevel: "warning",
  });
  packClients();
  writeFileSync(BUILD_STAMP, stamp);
}

function packClients(): void {
  packCli(path.join(STANDALONE, "public"));
  packPython(path.join(STANDALONE, "public"));
}

/** The next-auth secret: NEXTAUTH_SECRET, else one generated once and kept in .data/nextauth-secret. */
export function nextAuthSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = path.join(DATA_DIR, "nextauth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/**
 * The local file store's directory, absolute: the server runs in the standalone directory, and its
 * files are the repository's `.data/files` (as the seed, run from the repository, writes them).
 */
export function filesDir(env: Record<string, string | undefined> = {}): string {
  return path.resolve(ROOT, env.QUILTBOARD_FILES_DIR || process.env.QUILTBOARD_FILES_DIR || path.join(DATA_DIR, "files"));
}

export type RunningApp = { url: string; child: ChildProcess; stop: () => Promise<void> };

/**
 * The app's JavaScript heap limit in MB (node --max-old-space-size), here and in the Dockerfile's
 * CMD (test/unit/docker-compose.test.ts holds them equal). Past it the process ends ("JavaScript heap
 * out of memory") and is restarted (npm start, the compose files' restart policy) instead of growing
 * until the machine swaps or its kernel kills something else. A solution's and the uploads' columns
 * are typed arrays, which live outside this heap: allow the process about 1 GB more (docs/operating.md).
 */
export const APP_HEAP_MB = 2048;

/**
 * Starts the standalone server on `port` through its entry (which migrates, then serves behind the
 * HTTP preload: exactly what the image runs, with its heap limit) with the given environment and
 * waits until it answers. `stop` sends SIGTERM and, after 10 s, SIGKILL. Quiet
 * output is kept, or written to `logFile` directly by the app's process (through the file's
 * descriptor: the app never waits for this process to read its output, which a test runner
 * blocked in spawnSync would not).
 */
export async function startApp(options: { port: number; env: Record<string, string>; quiet?: boolean; logFile?: string }): Promise<RunningApp> {
  const url = `http://localhost:${options.port}`;
  const logFd = options.quiet && options.logFile ? openSync(options.logFile, "a") : null;
  const child = spawn(process.execPath, [`--max-old-space-size=${APP_HEAP_MB}`, "entry.mjs"], {
    cwd: STANDALONE,
    stdio: !options.quiet ? "inherit" : logFd !== null ? ["ignore", logFd, logFd] : ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      NEXTAUTH_URL: url,
      PORT: String(options.port),
      HOSTNAME: "0.0.0.0",
      ...options.env,
      QUILTBOARD_FILES_DIR: filesDir(options.env),
    },
  });
  if (logFd !== null) closeSync(logFd);
  let captured = "";
  child.stdout?.on("data", (d: Buffer) => (captured += d));
  child.stderr?.on("data", (d: Buffer) => (captured += d));
  const output = () => (options.logFile && logFd !== null ? readFileSync(options.logFile, "utf8").slice(-20_000) : captured);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  await waitUntilReady(child, url, { stop, output });
  return { url, child, stop };
}

/** How a child process ended, in words: "exited with code 1", "was killed by SIGKILL". */
function howEnded(child: ChildProcess): string | null {
  if (child.signalCode !== null) return `was killed by ${child.signalCode}`;
  if (child.exitCode !== null) return `exited with code ${child.exitCode}`;
  return null;
}

/**
 * Waits until the app `child` answers `GET {url}/api/v1/competitions`, polling every 250 ms. Throws
 * at once, with its `output`, when the process ends first, by an exit code or by a signal (a kill
 * during start-up); after `timeoutMs` (60 s) it is stopped and the wait fails.
 */
export async function waitUntilReady(child: ChildProcess, url: string, options: { stop: () => Promise<void>; output: () => string; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const ended = howEnded(child);
    if (ended) throw new Error(`the app ${ended} before it was ready\n${options.output()}`);
    try {
      const response = await fetch(`${url}/api/v1/competitions`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await options.stop();
      throw new Error(`the app did not answer on ${url} within ${Math.round((options.timeoutMs ?? 60_000) / 1000)} s\n${options.output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
