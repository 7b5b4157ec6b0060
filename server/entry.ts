// The entry of the standalone server: what the Docker image runs, and what `npm start` and
// `npm test` start. Bundled by scripts/app.ts (ensureBuilt) into .next/standalone/entry.mjs beside
// Next's server.js, the HTTP preload and the migrations, so it needs nothing outside that directory.
// It checks the whole environment against the configuration's schema (lib/server/platform/env.ts)
// first: a malformed or missing variable stops it with a message naming each (exit code 2).
//
//   node entry.mjs                              migrate DATABASE_URL, then serve on PORT
//   node entry.mjs admin create EMAIL [--name NAME]   create an administrator (password on stdin)
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getHeapStatistics } from "node:v8";
import { runAdminCommand } from "./admin-command";
import { migrate } from "./migrate";
import { exitIfMisconfigured, parseEnvironment } from "@/lib/server/platform/env";

const here = path.dirname(process.argv[1]);
const migrations = path.join(here, "prisma", "migrations");
const [command, ...rest] = process.argv.slice(2);
exitIfMisconfigured(command === undefined ? ["DATABASE_URL", "NEXTAUTH_SECRET"] : ["DATABASE_URL"]);
const { DATABASE_URL: databaseUrl = "", QUILTBOARD_DEMO: demo } = parseEnvironment(process.env);

if (command === "admin") {
  process.exitCode = await runAdminCommand(rest, {
    usage: "usage: node entry.mjs admin create EMAIL [--name NAME]   (the password is read from the terminal or stdin)",
    database: async () => ({ url: databaseUrl, stop: async () => {} }),
    migrations,
  });
} else if (command === undefined) {
  if (demo) {
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
