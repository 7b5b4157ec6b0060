// npm test – typecheck, lint, format check, unit, integration (a throwaway PostgreSQL) and end-to-end tests (the
// built app on that database, API clients and a real Chromium). Ends with "N passed, N failed".
// npm run test:unit | test:slow | test:integration | test:e2e [-- vitest filters] runs one layer with what it
// needs (a database and mail catcher; for e2e the build and two app instances), e.g.
// `npm run test:e2e -- test/e2e/cli.test.ts -t "one line"`.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureBuilt, startApp } from "./app";
import { startTestDatabase } from "./db/database";
import { freePort } from "./db/admin";
import { migrate } from "../server/migrate";
import { HARNESS_LIMITS } from "./harness";
import { type MailCatcher, startMailCatcher } from "./mail";
import { startOidcProvider } from "./oidc";

const log = (line: string) => console.log(`\n[test] ${line}`);
/** What Prettier formats (.prettierrc.json, .prettierignore); Markdown is written by hand. */
const FORMATTED = "**/*.{ts,tsx,mjs,js,json,css,yml,yaml}";
const REPORTS = path.resolve("test-results/reports");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps: string[] = [];

function run(step: string, command: string, args: string[], env: Record<string, string> = {}): boolean {
  log(step);
  const result = spawnSync(process.execPath, [command, ...args], { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) failedSteps.push(step);
  return result.status === 0;
}

const [only, ...filters] = process.argv.slice(2);
if (only !== undefined && !["unit", "slow", "integration", "e2e"].includes(only)) {
  console.error(`unknown test layer "${only}": choose unit, slow, integration or e2e (or nothing for all)`);
  process.exit(2);
}
const wanted = (layer: string) => only === undefined || only === layer;

function vitest(project: string, env: Record<string, string> = {}): boolean {
  if (!wanted(project)) return true;
  const report = path.join(REPORTS, `${project}.json`);
  const ok = run(
    `${project} tests`,
    "node_modules/vitest/vitest.mjs",
    ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...filters],
    env,
  );
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, "utf8"));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
  }
  return ok;
}

// The Node every step and the app run on (scripts/bootstrap.mjs chose it; each child is process.execPath).
log(`Node ${process.version} (${process.execPath})`);
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

if (only === undefined) {
  run("typecheck (tsc)", "node_modules/typescript/bin/tsc", ["--noEmit", "-p", "."]);
  run("lint (eslint)", "node_modules/eslint/bin/eslint.js", ["--max-warnings", "0", "."]);
  run("format (prettier --check; npm run format fixes it)", "node_modules/prettier/bin/prettier.cjs", ["--check", "--log-level", "warn", FORMATTED]);
}
vitest("unit");
vitest("slow");
if (only === "unit" || only === "slow") finish();

/** A missing tool skips its tests with a loud banner; on CI that is a failure. */
function missing(banner: string, step: string): void {
  console.log(`\n${"!".repeat(banner.length)}\n${banner}\n${"!".repeat(banner.length)}`);
  if (process.env.CI) failedSteps.push(step);
}
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && wanted("e2e"))
  missing(`BROWSER TESTS WILL BE SKIPPED: no Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`, "Chromium missing on CI");
const PYTHON = process.env.PYTHON ?? "python3";
const hasPython = spawnSync(PYTHON, ["--version"]).status === 0;
if (!hasPython && wanted("e2e"))
  missing(`PYTHON CLIENT TESTS WILL BE SKIPPED: no ${PYTHON}. Install Python 3 (apt-get install -y python3) or set PYTHON.`, "python3 missing on CI");

log("starting a throwaway PostgreSQL for the integration and end-to-end tests");
const database = await startTestDatabase(() => {});
let mail: MailCatcher | undefined;
let files: string | undefined;
try {
  await migrate(database.url);
  const secret = randomBytes(32).toString("base64url");
  // Mail goes to a real SMTP server, a local catcher the tests read (MAIL_UI_URL/email).
  mail = await startMailCatcher();
  // The tests' webhook receivers listen on 127.0.0.1, which a deployment refuses by default.
  // The local file store of this run's database, shared by the integration tests and both app instances.
  files = mkdtempSync(path.join(tmpdir(), "quiltboard-test-files-"));
  const env = {
    DATABASE_URL: database.url,
    NEXTAUTH_SECRET: secret,
    SMTP_URL: mail.smtpUrl,
    MAIL_UI_URL: mail.webUrl,
    QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE: "1",
    QUILTBOARD_FILES_DIR: files,
  };
  vitest("integration", env);
  if (wanted("e2e")) await endToEnd(env);
} catch (error) {
  failedSteps.push(`setup: ${(error as Error).message}`);
} finally {
  await mail?.stop();
  await database.stop();
  if (files) rmSync(files, { recursive: true, force: true });
}
finish();

/** The built standalone server, two instances on the test database, and the e2e tests against them. */
async function endToEnd(env: Record<string, string>): Promise<void> {
  // The apps look for competitions to close every 2 s instead of 30, so the test of the automatic close is quick.
  const appEnv = { ...env, ...HARNESS_LIMITS, QUILTBOARD_CLOSE_SECONDS: "2", METRICS_TOKEN: randomBytes(24).toString("base64url") };

  ensureBuilt((line) => log(line));
  // Two app instances on one database, as behind a load balancer (docs/reliability.md), both
  // offering sign-in through a real OpenID Connect provider on 127.0.0.1 as "Lab SSO".
  const ports = [await freePort(), await freePort()];
  const oidc = await startOidcProvider(ports.map((port) => `http://localhost:${port}/api/auth/callback/lab`));
  const lab = { id: "lab", name: "Lab SSO", issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret };
  Object.assign(appEnv, { QUILTBOARD_OIDC_PROVIDERS: JSON.stringify([lab]) });
  const logFile = path.resolve("test-results/app.log");
  rmSync(logFile, { force: true });
  const app = await startApp({ port: ports[0], env: appEnv, quiet: true, logFile }).catch(async (error) => {
    await oidc.stop();
    throw error;
  });
  const second = await startApp({ port: ports[1], env: appEnv, quiet: true, logFile }).catch(async (error) => {
    await Promise.all([app.stop(), oidc.stop()]);
    throw error;
  });
  try {
    vitest("e2e", {
      ...env,
      APP_URL: app.url,
      APP_URL_2: second.url,
      APP_LOG: logFile,
      METRICS_TOKEN: appEnv.METRICS_TOKEN,
      ...(hasChromium ? { CHROMIUM_PATH: CHROMIUM } : {}),
      ...(hasPython ? { PYTHON } : {}),
    });
  } finally {
    await Promise.all([app.stop(), second.stop(), oidc.stop()]);
  }
}

function finish(): never {
  console.log("");
  if (failedSteps.length) console.log(`failed steps: ${failedSteps.join(", ")}`);
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(failedSteps.length ? 1 : 0);
}
