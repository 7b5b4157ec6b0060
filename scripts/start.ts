// npm start – database, migrations, demo data, build, then the app on http://localhost:$PORT.
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { DATA_DIR, ensureBuilt, filesDir, nextAuthSecret, startApp } from "./app";
import { startAppDatabase } from "./db/database";
import { migrate } from "../server/migrate";
import { type MailCatcher, startMailCatcher } from "./mail";
import { exitIfMisconfigured, parseEnvironment } from "@/lib/server/platform/env";

const log = (line: string) => console.log(`[quiltboard] ${line}`);
// The app's configuration is checked before anything starts (the app's entry checks it again).
exitIfMisconfigured([], "[quiltboard] ");
const port = parseEnvironment(process.env).PORT;
// npm start's own: the port of the local mail catcher's inbox page.
const mailUiPort = process.env.MAIL_UI_PORT?.trim() ? Number(process.env.MAIL_UI_PORT) : port + 1;
if (!Number.isInteger(mailUiPort) || mailUiPort < 1 || mailUiPort > 65_535) {
  console.error(`[quiltboard] MAIL_UI_PORT=${JSON.stringify(process.env.MAIL_UI_PORT)}: expected a port number from 1 to 65,535`);
  process.exit(2);
}
const { demoRequested } = await import("@/prisma/seed");
const demo = demoRequested(process.env); // read before DATABASE_URL is filled in below
// The demo is seeded here; the app's own entry refuses the flag (the image carries no demo data), so
// it must not inherit it.
delete process.env.QUILTBOARD_DEMO;

mkdirSync(DATA_DIR, { recursive: true });
const pgLog = path.join(DATA_DIR, "postgres.log");
log(process.env.DATABASE_URL ? "using DATABASE_URL" : "starting the embedded PostgreSQL (data in .data/postgres)");
const database = await startAppDatabase(DATA_DIR, (line) => appendFileSync(pgLog, line.endsWith("\n") ? line : `${line}\n`));

let app: Awaited<ReturnType<typeof startApp>> | undefined;
let mail: MailCatcher | undefined;
let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  log("stopping…");
  await app?.stop();
  await mail?.stop();
  await database.stop();
  log("stopped");
  process.exit(code);
}
/** The app's ends within the last RESTART_WINDOW_MS: past MAX_RESTARTS of them npm start gives up. */
const ends: number[] = [];
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;

/**
 * Restarts the app when it ends on its own (past its heap limit, a crash), saying what happened; the
 * database and the mail catcher keep running. An app that keeps ending (more than MAX_RESTARTS times
 * in a minute) stops everything, with its reason.
 */
function keepRunning(start: () => Promise<NonNullable<typeof app>>): void {
  app!.child.once("exit", (code, signal) => {
    if (stopping) return;
    const now = Date.now();
    ends.push(now);
    while (ends[0] < now - RESTART_WINDOW_MS) ends.shift();
    const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
    const why = code === 134 || signal === "SIGABRT" ? ", probably out of memory (see its last lines above)" : " (see its last lines above)";
    if (ends.length > MAX_RESTARTS) {
      console.error(`[quiltboard] the app ${how}${why}, the ${ends.length}th time within a minute: stopping everything`);
      void shutdown(1);
      return;
    }
    console.error(`[quiltboard] the app ${how}${why}; restarting it`);
    start().then(
      (restarted) => {
        app = restarted;
        log(`the app is running again at ${restarted.url}`);
        keepRunning(start);
      },
      (error: Error) => {
        console.error(`[quiltboard] the app could not be restarted: ${error.message}`);
        void shutdown(1);
      },
    );
  });
}

process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

try {
  const { applied } = await migrate(database.url);
  log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database schema is up to date");

  // The seed goes through the app's own services, which read their configuration from the environment.
  Object.assign(process.env, { DATABASE_URL: database.url, NEXTAUTH_SECRET: nextAuthSecret(), QUILTBOARD_FILES_DIR: filesDir() });
  const { DEMO_ACCOUNTS, needsSeed, seed } = await import("@/prisma/seed");
  if (demo && (await needsSeed())) {
    log("seeding demo data");
    await seed();
  }
  const { countAdmins } = await import("@/lib/server/accounts/users");
  const admins = await countAdmins();

  ensureBuilt(log);
  // Without SMTP_URL, mail goes to a local catcher whose inbox is a web page.
  if (!process.env.SMTP_URL) mail = await startMailCatcher({ webPort: mailUiPort, directory: path.join(DATA_DIR, "mail") });
  const smtp = process.env.SMTP_URL ?? mail!.smtpUrl;
  const appEnv = { DATABASE_URL: database.url, NEXTAUTH_SECRET: nextAuthSecret(), SMTP_URL: smtp, ...(process.env.NEXTAUTH_URL ? { NEXTAUTH_URL: process.env.NEXTAUTH_URL } : {}) };
  app = await startApp({ port, env: appEnv });
  keepRunning(() => startApp({ port, env: appEnv }));
  const accounts = demo
    ? `  Demo accounts (email / password):\n${DEMO_ACCOUNTS.map((a) => `    ${a.role === "admin" ? "admin     " : "competitor"}  ${a.email.padEnd(24)} ${a.password}`).join("\n")}`
    : admins === 0
      ? "  No administrator yet: create one with  npm run admin -- create you@example.org"
      : "  No demo data (set QUILTBOARD_DEMO=1 to create it on an empty database).";
  console.log(`
  Quiltboard is running at ${app.url} (Node ${process.version})
  ${mail ? `Mail it sends (sign-up links, password resets) is caught at ${mail.webUrl} (kept in .data/mail)` : `Mail goes through ${new URL(smtp).host}`}

${accounts}

  Press Ctrl-C to stop.
`);
} catch (error) {
  console.error(`[quiltboard] ${(error as Error).message}`);
  await shutdown(1);
}
