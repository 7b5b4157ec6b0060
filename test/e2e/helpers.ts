import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { startApp, type RunningApp } from "@/scripts/app";
import { createDatabaseIfMissing, dropDatabase, freePort } from "@/scripts/db/admin";
import { startS3, type S3Peer } from "@/scripts/support/s3";
import { migrate } from "@/server/migrate";
import { checkAnswer } from "@/test/support/contract";
import { demoSolutionCsv } from "@/prisma/demo-solution";
import {
  type Answer,
  type ApiUser,
  client,
  newApiUser as signUp,
  newCompetitor as joinAsNewCompetitor,
  openRequest as openRawRequest,
  parseAnswer,
  publishOverApi,
  request,
  signInWithCookies as signInAt,
} from "@/scripts/support/rest-client";

export { type Answer, parseAnswer };

export const APP_URL = process.env.APP_URL ?? "http://localhost:3000";
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH;
/** The machine's python3, for the Python client's tests (scripts/test.ts finds it; unset without one). */
export const PYTHON = process.env.PYTHON;
export const SCREENSHOTS = path.resolve("test-results/screenshots");

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomBytes(6).toString("hex")}@example.com`;
}

// The app under test's bindings of scripts/support/rest-client.ts (the one REST client).

/** A request to the app under test, with a JSON body when given one. */
export function api(pathname: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return request(APP_URL, pathname, { method: init.method, json: init.body, headers: init.headers });
}

/**
 * Debian's Chromium with the flags this machine needs (no network beyond loopback). Playwright
 * turns the back/forward cache off; `backForwardCache` leaves it on, as a user's browser has it.
 */
export async function launchBrowser(viewport = { width: 1280, height: 800 }, options: { backForwardCache?: boolean; timezoneId?: string } = {}): Promise<BrowserContext> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launchPersistentContext(mkdtempSync(path.join(tmpdir(), "quiltboard-chromium-")), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport,
    baseURL: APP_URL,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    ...(options.backForwardCache ? { ignoreDefaultArgs: ["--disable-back-forward-cache"] } : {}),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/** Signs a fresh user up on the app under test and makes them an API token. */
export function newApiUser(prefix = "user"): Promise<ApiUser> {
  return signUp(APP_URL, prefix);
}

/** A new user on the app under test with a team of their own in the competition. */
export function newCompetitor(slug: string, team?: string) {
  return joinAsNewCompetitor(APP_URL, slug, team);
}

/** PUT a CSV body. */
export function putCsv(pathname: string, csv: string, headers: Record<string, string>) {
  return request(APP_URL, pathname, { method: "PUT", csv, headers });
}

/** Runs `npm run calibrate` on a spec, as a user would, and returns its JSON answer. */
export async function runCalibrateCli(spec: unknown): Promise<Record<string, unknown>> {
  const { execFileSync } = await import("node:child_process");
  const { writeFileSync } = await import("node:fs");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "calibrate-")), "spec.json");
  writeFileSync(file, JSON.stringify(spec));
  const out = execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/calibrate.ts", file], { encoding: "utf8" });
  return JSON.parse(out);
}

/** A second app instance on the same database (scripts/test.ts starts it). */
export const APP_URL_2 = process.env.APP_URL_2 ?? APP_URL;

/** An organizer (a new one unless given) publishes a competition on the demo solution through the API; returns its slug. */
export async function publishedCompetition(
  options: {
    daily?: number;
    budget?: number;
    sigma?: number;
    threshold?: number;
    startsAt?: string;
    endsAt?: string;
    lateSubmissions?: boolean;
    /** the organizer's Authorization header (a new organizer unless given) */
    organizer?: { authorization: string };
  } = {},
): Promise<{ slug: string; organizer: { authorization: string } }> {
  const organizer = options.organizer && { auth: options.organizer, call: client(APP_URL, options.organizer) };
  const { slug, organizer: by } = await publishOverApi(APP_URL, {
    organizer,
    settings: {
      title: "E2E competition",
      dailySubmissionLimit: options.daily ?? 100,
      maxTeamSize: 4,
      lateSubmissions: options.lateSubmissions ?? false,
      ...(options.startsAt ? { startsAt: options.startsAt } : {}),
      ...(options.endsAt ? { endsAt: options.endsAt } : {}),
    },
    solution: demoSolutionCsv(),
    mechanism: { mode: "practical", sigma: options.sigma ?? 0.01, threshold: options.threshold ?? 0.04, budget: options.budget ?? 5 },
  });
  return { slug, organizer: by.auth };
}

/**
 * POSTs `chunks` over a plain TCP connection and returns the answer even when the server answers
 * and closes before the body is all sent (fetch, and even node:http, may report the broken pipe and
 * drop the answer); `sent` is how much of the body went out before the answer. With
 * `transfer-encoding: chunked` among the headers the body is sent in chunks, without a length.
 */
export function send(path: string, headers: Record<string, string>, chunks: Iterable<Buffer>): Promise<Answer> {
  const url = new URL(path, APP_URL);
  const chunked = headers["transfer-encoding"] === "chunked";
  let sent = 0;
  let received = Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let answered = false;
    const settle = () => {
      const answer = parseAnswer(received);
      if (!answer || answered) return;
      answered = true;
      socket.destroy();
      checkAnswer(url, "POST", { status: answer.status, contentType: answer.headers["content-type"] ?? null, body: answer.body, allow: answer.headers.allow }).then(
        () => resolve({ ...answer, sent }),
        reject,
      );
    };
    socket.on("data", (d: Buffer) => {
      received = Buffer.concat([received, d]);
      settle();
    });
    socket.on("error", () => {}); // writes after the server's answer fail; the answer is what counts
    socket.on("close", () => {
      settle();
      if (!answered) reject(new Error(`the connection closed without a whole answer to POST ${path}: ${received.toString("latin1").slice(0, 200)}`));
    });
    const head = [`POST ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, "Connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "", ""].join(
      "\r\n",
    );
    socket.write(head);
    const iterator = chunks[Symbol.iterator]();
    const pump = () => {
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        if (answered || socket.destroyed) return;
        sent += next.value.length;
        const writes = chunked ? [socket.write(`${next.value.length.toString(16)}\r\n`), socket.write(next.value), socket.write("\r\n")] : [socket.write(next.value)];
        const ok = writes.every(Boolean);
        if (!ok) return void socket.once("drain", pump);
      }
      if (chunked && !socket.destroyed) socket.write("0\r\n\r\n");
    };
    pump();
    setTimeout(() => reject(new Error(`no answer to POST ${path} within 30 s`)), 30_000).unref();
  });
}

/** A POST over a plain TCP connection to the app under test, its body sent piece by piece (scripts/support/rest-client.ts). */
export function openRequest(path: string, headers: Record<string, string>) {
  return openRawRequest(APP_URL, path, headers);
}

/** POST a predictions CSV (text/csv) to one of the app instances. */
export function postCsv(url: string, slug: string, csv: string, headers: Record<string, string>) {
  return request(url, `/api/v1/competitions/${slug}/submissions`, { csv, headers });
}

/**
 * Signs in as a browser would, without one (scripts/support/rest-client.ts): the cookie jar of that session (a
 * `cookie` header for later requests).
 */
export async function signInWithCookies(email: string, password: string): Promise<{ cookie: () => string; keep: (response: Response) => void }> {
  const session = await signInAt(APP_URL, email, password);
  if (!session.signedIn) throw new Error(`signing in as ${email} set no session cookie`);
  return session;
}

/** Signs in through the sign-in page and waits until the header shows the account. */
export async function signInInBrowser(page: import("playwright-core").Page, email: string, password: string): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("account-link").waitFor();
}

/** Signs a new account up through the sign-up page and waits for the account page. */
export async function signUpInBrowser(page: import("playwright-core").Page, name: string, password = "browser password 1"): Promise<string> {
  const email = uniqueEmail(name.split(" ")[0].toLowerCase());
  await page.goto("/signup");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/account");
  return email;
}

const adminUrl = () => Object.assign(new URL(process.env.DATABASE_URL!), { pathname: "/postgres" }).toString();
const fresh: string[] = [];

/** An empty database on the suite's server (migrated unless asked not to), as a deployment starts; dropFreshDatabases removes them. */
export async function freshDatabase(prefix: string, migrated = true): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  await createDatabaseIfMissing(adminUrl(), name);
  fresh.push(name);
  const url = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString();
  if (migrated) await migrate(url);
  return url;
}

export async function dropFreshDatabases(): Promise<void> {
  for (const name of fresh.splice(0)) await dropDatabase(adminUrl(), name);
}

/**
 * An app of the describe block's own on the S3 store (on the tests' database, with an s3rver of its
 * own), started before the block's tests and stopped after; `app` and `s3` are set once started.
 */
export function appOnS3(): { app: RunningApp; s3: S3Peer } {
  const on = {} as { app: RunningApp; s3: S3Peer };
  beforeAll(async () => {
    on.s3 = await startS3();
    on.app = await startApp({ port: await freePort(), quiet: true, env: { DATABASE_URL: process.env.DATABASE_URL!, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET!, ...on.s3.env } });
  });
  afterAll(async () => {
    await on.app?.stop();
    await on.s3?.stop();
  });
  return on;
}

/** What a program run to its end left: its exit code and its output. */
export type Run = { code: number; stdout: string; stderr: string };

/**
 * Runs a program to its end without blocking this process (which may serve the proxies and peers the
 * program talks to), with this environment less the client's own QUILTBOARD_TOKEN, QUILTBOARD_COMPETITION,
 * QUILTBOARD_URL and QUILTBOARD_CONFIG_DIR, plus `env`; `stdin` is its whole input.
 */
export function runProgram(program: string, args: string[], options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const inherited = { ...process.env };
    for (const name of ["QUILTBOARD_TOKEN", "QUILTBOARD_COMPETITION", "QUILTBOARD_URL", "QUILTBOARD_CONFIG_DIR"]) delete inherited[name];
    const child = spawn(program, args, { cwd: options.cwd, env: { ...inherited, ...options.env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}
