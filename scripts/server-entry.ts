// The entry of the standalone server: what the Docker image runs, and what `npm start` and
// `npm test` start. Bundled by scripts/app.ts (ensureBuilt) into .next/standalone/entry.mjs beside
// Next's server.js, the HTTP preload and the migrations, so it needs nothing outside that directory.
//
//   node entry.mjs                              migrate DATABASE_URL, then serve on PORT
//   node entry.mjs admin create EMAIL [--name NAME]   create an administrator (password on stdin)
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getHeapStatistics } from "node:v8";
import { runAdminCommand } from "./admin-command";
import { migrate } from "./db/migrate";

const here = path.dirname(process.argv[1]);
const migrations = path.join(here, "prisma", "migrations");
const [command, ...rest] = process.argv.slice(2);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("DATABASE_URL is not set: point it at PostgreSQL 15 or newer, e.g. postgresql://user:password@host:5432/quiltboard");
  process.exit(2);
}

if (command === "admin") {
  process.exitCode = await runAdminCommand(rest, {
    usage: "usage: node entry.mjs admin create EMAIL [--name NAME]   (the password is read from the terminal or stdin)",
    database: async () => ({ url: databaseUrl, stop: async () => {} }),
    migrations,
  });
} else if (command === undefined) {
  if (!process.env.NEXTAUTH_SECRET) {
    console.error("NEXTAUTH_SECRET is not set: it signs the session cookies; use 32 random bytes, e.g. openssl rand -base64 32");
    process.exit(2);
  }
  if (process.env.QUILTBOARD_DEMO === "1") {
    console.error("QUILTBOARD_DEMO=1: the standalone server carries no demo data; the demo is `npm start` in a clone of the repository");
    process.exit(2);
  }
  const { applied } = await migrate(databaseUrl, migrations);
  const say = (fields: Record<string, unknown>, msg: string) => console.log(JSON.stringify({ level: 30, time: new Date().toISOString(), service: "quiltboard", ...fields, msg }));
  if (applied.length) say({ applied }, "migrations applied");
  // The JavaScript heap's limit (node --max-old-space-size, scripts/app.ts APP_HEAP_MB), for whoever sizes the machine.
  say({ heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 1024 / 1024) }, "starting the server");
  process.chdir(here);
  await import(pathToFileURL(path.join(here, "http-preload.mjs")).href);
  await import(pathToFileURL(path.join(here, "server.js")).href);
} else {
  console.error(`unknown command "${command}": run node entry.mjs (serve) or node entry.mjs admin create EMAIL`);
  process.exit(2);
}
