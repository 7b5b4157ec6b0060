import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@/scripts/db/admin";
import { APP_HEAP_MB, APP_SEMI_SPACE_MB, startApp } from "@/scripts/app";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { api, APP_URL, dropFreshDatabases, freshDatabase, newApiUser, openRequest, postCsv, publishedCompetition, send, uniqueEmail, newCompetitor } from "./helpers";
import { basic } from "@/scripts/support/rest-client";

// Issue 12, "safe to run in public": each case an unfriendly client would try, through the real
// server and database.

/**
 * Sends a request and, while it is in flight, keeps sending a cheap GET: `answeredMeanwhile` counts
 * those answered before the request's own answer (a server stuck on the request answers none but
 * the one already under way). Times are for `npm run bench -- hostile`, not asserted here.
 */
async function whileBusy<T>(request: () => Promise<T>): Promise<T & { answeredMeanwhile: number }> {
  let done = false;
  const pending = request().then((r) => {
    done = true;
    return r;
  });
  let answeredMeanwhile = 0;
  while (!done) {
    await (await fetch(`${APP_URL}/api/v1/competitions`)).text();
    if (!done) answeredMeanwhile++;
    await new Promise((r) => setTimeout(r, 20));
  }
  return { ...(await pending), answeredMeanwhile };
}

afterAll(dropFreshDatabases);

async function counters(slug: string, auth: Record<string, string>) {
  const team = await (await api(`/api/v1/competitions/${slug}/team`, { headers: auth })).json();
  const submissions = (await (await api(`/api/v1/competitions/${slug}/submissions`, { headers: auth })).json()).submissions;
  return { budget: team.budget, submissions: submissions.length };
}

describe("bounded requests", () => {
  it("rejects a 16 MiB one-line submission at its line length, and a 4 MiB record of commas at its field limit, spending nothing", async () => {
    const { slug } = await publishedCompetition();
    const { auth } = await newCompetitor(slug);
    const before = await counters(slug, auth);
    const upload = (text: string) =>
      send(`/api/v1/competitions/${slug}/submissions`, { ...auth, "content-type": "text/csv", "content-length": String(Buffer.byteLength(text)) }, [Buffer.from(text)]);
    const long = await whileBusy(() => upload(`id,prediction\n${"x".repeat(16 * 1024 * 1024)}`));
    expect(long.status).toBe(422);
    expect(long.body.error!.message).toBe("the submission was rejected: line 2: the line is longer than 16384 bytes: is this the right file?");
    expect(long.headers.connection).toBe("close"); // the rest of the body is never read
    const commas = await whileBusy(() => upload(`id,prediction\n${",".repeat(4 * 1024 * 1024)}`));
    expect(commas.status).toBe(422);
    expect(commas.body.error!.message).toBe("the submission was rejected: line 2: more than 16 fields: is this the right file?");
    expect(await counters(slug, auth)).toEqual(before);
  });

  it("counts the bytes of a chunked body (no Content-Length) and stops at the limit", async () => {
    const chunks = function* () {
      for (let i = 0; i < 1024; i++) yield Buffer.alloc(64 * 1024, " "); // 64 MiB in all
    };
    const answer = await send("/api/v1/users", { "content-type": "application/json", "transfer-encoding": "chunked" }, chunks());
    expect(answer.status).toBe(413);
    expect(answer.body.error!.message).toBe("the request body is larger than 1 MiB");
    expect(answer.sent).toBeLessThan(64 * 1024 * 1024); // the server stopped reading long before the end
  });

  it("answers a hostile calibration within its work limit while other requests are served", async () => {
    const S = 64;
    const stay = 1 - 1e-6;
    const transition = Array.from({ length: S }, (_, i) => Array.from({ length: S }, (_, j) => (i === j ? stay : (1 - stay) / (S - 1))));
    const initial = Array.from({ length: S }, (_, i) => (i === 0 ? 1 : 0));
    const chains = [1e7, 9e6, 8e6, 7e6, 6e6, 5e6, 4e6, 3e6];
    const spec = Buffer.from(JSON.stringify({ n: 10_000_000, model: { kind: "markov", transition, initial, chains }, epsBdp: 0.1 }));
    const r = await whileBusy(() => send("/api/v1/calibrate", { "content-type": "application/json", "content-length": String(spec.length) }, [spec]));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ exhaustive: false });
    // The search runs on a worker thread: requests sent meanwhile are answered (before, every
    // request waited the 41.8 s of the calibration).
    expect(r.answeredMeanwhile).toBeGreaterThanOrEqual(3);
    const tooBig = await api("/api/v1/calibrate", { body: { n: 100_000_000, model: { kind: "independent" }, epsBdp: 0.1 } });
    expect(tooBig.status).toBe(422);
    expect((await tooBig.json()).error.message).toBe("n: at most 10,000,000 rows (ten times the largest holdout Quiltboard serves)");
  });
});

describe("memory no account can pin", () => {
  // Issue 24: uploads were read (multipart: buffered whole) before the caller's membership was
  // checked, one account could keep any number of parses in memory, and a body could trickle in
  // for the 300 s of Node's request timeout.
  const boundary = "----quiltboard-test";
  const multipartHead = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.csv"\r\ncontent-type: text/csv\r\n\r\nid,prediction\n`;

  it("refuses a 125 MB multipart upload from an account in no team having read only its first 64 KiB", async () => {
    const { slug } = await publishedCompetition();
    const outsider = await newApiUser("outsider");
    const upload = openRequest(`/api/v1/competitions/${slug}/submissions`, {
      ...outsider.auth,
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": String(125 * 1024 * 1024),
    });
    upload.write(Buffer.concat([Buffer.from(multipartHead), Buffer.alloc(64 * 1024 - multipartHead.length, "r")]));
    const answer = await upload.answer(10_000); // the rest of the body is never sent
    upload.close();
    expect(answer?.status).toBe(403);
    expect(answer?.body.error?.message).toBe("join or create a team in this competition before submitting");
    expect(upload.sent).toBe(64 * 1024);
  });

  it("lets one account read two uploads at once: a third is a 429 with Retry-After before its body is read; one that gives up is its own error, not the database's", async () => {
    const { slug } = await publishedCompetition();
    const { auth } = await newCompetitor(slug);
    const csv = demoPredictionsCsv({ skill: 0.7, seed: "slots" });
    const started = new Date().toISOString();
    const slow = [0, 1].map(() => {
      const upload = openRequest(`/api/v1/competitions/${slug}/submissions`, { ...auth, "content-type": "text/csv", "content-length": String(csv.length) });
      upload.write(csv.slice(0, 1000));
      return upload;
    });
    await new Promise((r) => setTimeout(r, 500)); // both are being read
    const third = await postCsv(APP_URL, slug, csv, auth);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await third.json()).error.message).toBe("you already have 2 uploads in progress, the most one account may send at once; try again in 5 s, when one has finished");
    for (const upload of slow) upload.close(); // the client gives up mid-upload
    await expect.poll(async () => (await postCsv(APP_URL, slug, csv, auth)).status, { timeout: 10_000 }).toBe(201); // their slots are free again
    const log = readFileSync(process.env.APP_LOG!, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { time: string; level: number; msg: string });
    expect(log.filter((l) => l.time >= started && (l.msg === "database unavailable" || l.level >= 50))).toEqual([]);
  });

  it("cuts off a request body that trickles in (408), instead of holding the request for minutes", { timeout: 60_000 }, async () => {
    const upload = openRequest("/api/v1/users", { "content-type": "application/json", "content-length": String(1024) });
    upload.write('{"email": "');
    const trickle = setInterval(() => upload.write("r"), 2000); // a byte every 2 s: far below 500 bytes a second
    try {
      const answer = await upload.answer(45_000);
      expect(answer?.status).toBe(408);
      expect(answer?.body.error?.message).toMatch(/^the request body arrived too slowly \(\d+ bytes in 20 s; at least 500 bytes a second are needed\)$/);
    } finally {
      clearInterval(trickle);
      upload.close();
    }
  });
});

describe("exact keys and values", () => {
  it("refuses a class the solution does not have (422 naming the line), spending nothing", async () => {
    const { slug } = await publishedCompetition();
    const { auth } = await newCompetitor(slug);
    const before = await counters(slug, auth);
    const lines = demoPredictionsCsv({ skill: 0.7, seed: "abc" }).split("\n");
    lines[5] = `${lines[5].split(",")[0]},abc`;
    const response = await postCsv(APP_URL, slug, lines.join("\n"), auth);
    expect(response.status).toBe(422);
    expect((await response.json()).error.details).toEqual([{ line: 6, message: 'prediction "abc" is not one of the classes none, spike' }]);
    expect(await counters(slug, auth)).toEqual(before);
  });

  it("scopes an Idempotency-Key to the team: a different file under a used key is a 409", async () => {
    const { slug } = await publishedCompetition();
    const { auth } = await newCompetitor(slug);
    const headers = { ...auth, "idempotency-key": "try-1" };
    expect((await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "one" }), headers)).status).toBe(201);
    const before = await counters(slug, auth);
    const other = await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "two" }), headers);
    expect(other.status).toBe(409);
    expect((await other.json()).error.message).toBe("this Idempotency-Key was already used by your team for a different file; use a new key for a new submission");
    expect(await counters(slug, auth)).toEqual(before);
    // Another team may use the same key.
    const stranger = await newCompetitor(slug);
    expect((await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "two" }), { ...stranger.auth, "idempotency-key": "try-1" })).status).toBe(201);
  });
});

describe("abuse limits per client address", () => {
  // Apps of their own with a small limit, on a database of their own (the suite's apps have
  // counted many sign-ups from 127.0.0.1 already).
  const database = freshDatabase("limits");
  const limited = async (extra: Record<string, string>) =>
    startApp({
      port: await freePort(),
      quiet: true,
      env: { DATABASE_URL: await database, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET!, QUILTBOARD_LIMIT_SIGN_UP_IP: "3/3600", ...extra },
    });
  const signUp = (url: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/v1/users`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ email: uniqueEmail("ip"), password: "a long enough password", name: "Ip" }),
    });

  it("without TRUST_PROXY a client cannot escape the limit by claiming addresses in X-Forwarded-For", async () => {
    const app = await limited({});
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await signUp(app.url, { "x-forwarded-for": `203.0.113.${i}`, "x-quiltboard-client": `198.51.100.${i}` })).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      const refused = await signUp(app.url);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
      expect((await refused.json()).error.message).toMatch(/^too many new accounts from your address: at most 3 per 60 minutes; try again in \d+ s$/);
    } finally {
      await app.stop();
    }
  });

  it("with TRUST_PROXY=1 each address the proxy reports is counted on its own", async () => {
    const app = await limited({ TRUST_PROXY: "1" });
    const a = `192.0.2.${1 + (randomBytes(1)[0] % 200)}`;
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await signUp(app.url, { "x-forwarded-for": `10.9.9.9, ${a}` })).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      expect((await signUp(app.url, { "x-forwarded-for": `${a}, 10.1.2.3` })).status).toBe(201);
    } finally {
      await app.stop();
    }
  });
});

/** `npm start` (scripts/start.ts) on an empty database of its own, until it says it is running (or exits). */
async function npmStart(env: Record<string, string | undefined> = {}) {
  const url = await freshDatabase("deploy", false);
  const port = await freePort();
  const start = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], {
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  start.stdout.on("data", (d) => (output += d));
  start.stderr.on("data", (d) => (output += d));
  const deadline = Date.now() + 90_000;
  while (!output.includes("Press Ctrl-C to stop") && Date.now() < deadline && start.exitCode === null) await new Promise((r) => setTimeout(r, 200));
  const stop = async () => {
    if (start.exitCode !== null) return;
    start.kill("SIGINT");
    await new Promise((r) => start.once("exit", r));
  };
  return { url, base: `http://localhost:${port}`, start, output: () => output, stop };
}

/** A command's exit status and output, the process's event loop running meanwhile; `input` goes to its stdin. */
function run(command: string, args: string[], options: { env: NodeJS.ProcessEnv; input: string }): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout }));
    child.stdin.end(options.input);
  });
}

describe("no published credentials outside the demo", () => {
  it("npm start with QUILTBOARD_DEMO=1 on DATABASE_URL seeds the demo, with its data files, and keeps serving", async () => {
    const { base, start, output, stop } = await npmStart({ QUILTBOARD_DEMO: "1" });
    try {
      expect(output()).toContain("seeding demo data");
      expect(output()).toContain("alice@quiltboard.test");
      await new Promise((r) => setTimeout(r, 1500));
      expect(start.exitCode).toBe(null); // it used to seed and then exit with code 2
      const slugs = (await (await fetch(`${base}/api/v1/competitions`)).json()).competitions.map((c: { slug: string }) => c.slug);
      expect(slugs).toEqual(["household-power-spikes"]);
      const { attachments } = await (await fetch(`${base}/api/v1/competitions/household-power-spikes/attachments`)).json();
      expect(attachments.map((a: { filename: string }) => a.filename)).toEqual(["sample_submission.csv", "test.csv", "train.csv"]);
      // A download says its length (and a competitor in a team gets it).
      const token = await fetch(`${base}/api/v1/tokens`, {
        method: "POST",
        headers: { ...basic("alice@quiltboard.test", "quiltboard-alice"), "content-type": "application/json" },
        body: JSON.stringify({ name: "x" }),
      });
      const auth = { authorization: `Bearer ${(await token.json()).token}` };
      const test = attachments.find((a: { filename: string }) => a.filename === "test.csv");
      const download = await fetch(`${base}/api/v1/competitions/household-power-spikes/attachments/${test.id}`, { headers: auth });
      expect(download.status).toBe(200);
      expect(download.headers.get("content-length")).toBe(String(test.size));
      expect((await download.text()).split("\n")[0]).toBe("id,household,hour,kwh");
    } finally {
      await stop();
    }
  });

  // Issue 39, Low: `npm run admin -- create` failed on an `npm start` install unless NEXTAUTH_SECRET
  // was exported by hand; neither command is given one here (npm start keeps its own under .data/).
  it("npm start on DATABASE_URL creates no demo accounts and says how to make the first admin; `npm run admin -- create` makes one, who can change the password", async () => {
    const { url, base, output, stop } = await npmStart({ NEXTAUTH_SECRET: undefined });
    try {
      expect(output()).toContain("No administrator yet: create one with  npm run admin -- create you@example.org");
      expect(output()).not.toContain("quiltboard-admin");
      const demo = await fetch(`${base}/api/v1/tokens`, {
        method: "POST",
        headers: { ...basic("admin@quiltboard.test", "quiltboard-admin"), "content-type": "application/json" },
        body: JSON.stringify({ name: "x" }),
      });
      expect(demo.status).toBe(401);
      expect((await (await fetch(`${base}/api/v1/competitions`)).json()).competitions).toEqual([]);

      // Run without blocking this process: a spawnSync left the keep-alive connection to the app
      // unread while the server closed it, and the next request went out on a closed socket.
      const admin = await run(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/admin.ts", "create", "root@example.org", "--name", "Root"], {
        env: { ...process.env, DATABASE_URL: url, NEXTAUTH_SECRET: undefined },
        input: "a strong admin password\n",
      });
      expect(admin.stdout).toContain("created administrator root@example.org");
      expect(admin.status).toBe(0);
      const token = await fetch(`${base}/api/v1/tokens`, {
        method: "POST",
        headers: { ...basic("root@example.org", "a strong admin password"), "content-type": "application/json" },
        body: JSON.stringify({ name: "ops" }),
      });
      expect(token.status).toBe(201);
      const auth = { authorization: `Bearer ${(await token.json()).token}`, "content-type": "application/json" };
      expect(await (await fetch(`${base}/api/v1/me`, { headers: auth })).json()).toMatchObject({ email: "root@example.org", role: "admin" });

      const wrong = await fetch(`${base}/api/v1/me/password`, {
        method: "PUT",
        headers: auth,
        body: JSON.stringify({ currentPassword: "not it", newPassword: "another strong password" }),
      });
      expect([wrong.status, (await wrong.json()).error.message]).toEqual([403, "the current password is not right; nothing was changed"]);
      const changed = await fetch(`${base}/api/v1/me/password`, {
        method: "PUT",
        headers: auth,
        body: JSON.stringify({ currentPassword: "a strong admin password", newPassword: "another strong password" }),
      });
      expect(changed.status).toBe(200);
      const oldOne = await fetch(`${base}/api/v1/tokens`, {
        method: "POST",
        headers: { ...basic("root@example.org", "a strong admin password"), "content-type": "application/json" },
        body: JSON.stringify({ name: "x" }),
      });
      expect(oldOne.status).toBe(401);
    } finally {
      await stop();
    }
  });
});

/** The app process `npm start` (process `pid`) runs: its child that Next.js's server named "next-server (v…)". */
function appProcessOf(pid: number): number {
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ").at(-1)!.split(" ")[1]);
      if (parent === pid && readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("next-server")) return Number(entry);
    } catch {
      // the process ended while it was looked at
    }
  }
  throw new Error(`npm start (process ${pid}) runs no app`);
}

describe("npm start keeps the app up", () => {
  it("runs it with a heap limit, and restarts it when it dies (as past that limit), saying so", async () => {
    const { base, start, output, stop } = await npmStart();
    try {
      const heapLimit = Number(/"heapLimitMb":(\d+)/.exec(output())?.[1]);
      expect(heapLimit).toBe(APP_HEAP_MB + 3 * APP_SEMI_SPACE_MB); // the old space's limit plus the young generation's (three semi-spaces)
      const app = appProcessOf(start.pid!);
      process.kill(app, "SIGKILL");
      await expect.poll(() => output(), { timeout: 90_000 }).toMatch(/the app is running again at /);
      expect(output()).toContain("[quiltboard] the app was killed (SIGKILL) (see its last lines above); restarting it");
      expect((await fetch(`${base}/api/v1/competitions`)).status).toBe(200);
      expect(start.exitCode).toBe(null);
      expect(appProcessOf(start.pid!)).not.toBe(app);
    } finally {
      await stop();
    }
  });
});
