import { randomBytes, scryptSync } from "node:crypto";
import pg from "pg";
import type { Figure } from "./mechanism";
import { benchHostileLoad } from "./hostile-load";
import { readOnlyBaseline } from "./scoring";
import { percentile } from "./stats";
import { startHarness } from "../harness";
import { startMailCatcher } from "../mail";
import { client, newApiUser, newCompetitor, openRequest, publishOverApi, seededShuffle, signInWithCookies, syntheticPredictions, syntheticSolution } from "../support/rest-client";
import { rssMb } from "../support/load";
import { mannWhitney, raceDisqualifyAgainstMerge, raceResetAgainst, resetTimings } from "../support/races";

/**
 * Issue 12's hostile requests, each beside the normal case: how long the server takes to answer it
 * and the slowest of the cheap requests (GET /api/v1/competitions, every 50 ms) it answered
 * meanwhile. A safe server rejects the hostile ones fast and keeps the others fast. Then issue 24's
 * memory that no account may pin (pinnedMemory), and issue 39's resources that one account could
 * hold or exhaust (hostile-load.ts), which use the second app instance.
 */
export async function benchHostile(): Promise<Figure[]> {
  const harness = await startHarness(2);
  const [base] = harness.urls;
  const figures: Figure[] = [];
  try {
    const n = 1_000_000;
    await publishOverApi(base, {
      settings: { slug: "hostile", title: "Hostile", dailySubmissionLimit: 1000 },
      solution: syntheticSolution(n),
      mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 10 },
    });
    const player = await newCompetitor(base, "hostile", "Hostile");
    const post = (body: BodyInit, headers: Record<string, string> = {}, path = "/api/v1/competitions/hostile/submissions") =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { authorization: player.auth.authorization, "content-type": "text/csv", ...headers },
        body,
        duplex: "half",
      } as RequestInit);

    /** Times `request` while pinging the server; the figure notes the status and the slowest ping. */
    const measure = async (name: string, request: () => Promise<Response>, note = "") => {
      let done = false;
      let slowest = 0;
      const pinger = (async () => {
        while (!done) {
          const t = performance.now();
          await (await fetch(`${base}/api/v1/competitions`)).text();
          slowest = Math.max(slowest, performance.now() - t);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      const start = performance.now();
      // The server may answer and close while fetch is still sending: fetch then reports the broken pipe.
      const outcome = await request().then(
        async (response) => ({ status: String(response.status), text: await response.text(), ok: response.ok }),
        (error: Error) => ({ status: `connection closed by the server while sending (${(error.cause as Error | undefined)?.message ?? error.message})`, text: "{}", ok: true }),
      );
      const ms = performance.now() - start;
      done = true;
      await pinger;
      const message = outcome.ok ? "" : ` "${(JSON.parse(outcome.text).error?.message ?? "").slice(0, 70)}"`;
      figures.push({ name, value: ms, unit: "ms", note: `${outcome.status}${message}; slowest concurrent request ${slowest.toFixed(0)} ms${note}` });
    };

    const normal = syntheticPredictions(n, 1);
    await post(normal, { "idempotency-key": "warm" }); // decode and index the solution once
    for (let i = 0; i < 3; i++) await post(syntheticPredictions(n, 10 + i)); // warm the parser's JIT
    const baseline = await readOnlyBaseline(normal);
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await post(syntheticPredictions(n, 20 + i));
      alone.push(performance.now() - t);
    }
    const best = Math.min(...alone);
    figures.push({
      name: "normal: 1e6-row submission, alone (best of 3)",
      value: best,
      unit: "ms",
      note: `${(normal.length / 1e6).toFixed(1)} MB; a server that only reads the body: ${baseline.toFixed(0)} ms, ratio ${(best / baseline).toFixed(1)}`,
    });
    await measure("normal: 1e6-row submission, pinged", () => post(syntheticPredictions(n, 2)));
    await measure("hostile: one 16 MiB line", () => post(`id,prediction\n${"x".repeat(16 * 1024 * 1024)}`));
    await measure("hostile: 4 MiB of commas", () => post(`id,prediction\n${",".repeat(4 * 1024 * 1024)}`));
    const lines = syntheticPredictions(n, 3).split("\n");
    lines[500_000] = "r499999,abc";
    await measure("hostile: a class that is not in the solution", () => post(lines.join("\n")));
    await measure("hostile: a used Idempotency-Key, another file", () => post(syntheticPredictions(n, 4), { "idempotency-key": "warm" }));
    await measure("hostile: 64 MiB chunked JSON body", () => {
      const chunk = new Uint8Array(64 * 1024).fill(32);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({ pull: (c) => ((sent += chunk.length) > 64 * 1024 * 1024 ? c.close() : c.enqueue(chunk)) });
      return post(body, { "content-type": "application/json" }, "/api/v1/users");
    });
    const S = 64;
    const stay = 1 - 1e-6;
    const transition = Array.from({ length: S }, (_, i) => Array.from({ length: S }, (_, j) => (i === j ? stay : (1 - stay) / (S - 1))));
    const spec = {
      n: 10_000_000,
      model: { kind: "markov", transition, initial: Array.from({ length: S }, (_, i) => (i ? 0 : 1)), chains: [1e7, 9e6, 8e6, 7e6, 6e6, 5e6, 4e6, 3e6] },
      epsBdp: 0.1,
    };
    await measure(`hostile: ${(JSON.stringify(spec).length / 1024).toFixed(0)} KB /calibrate, 64 sticky states`, () =>
      post(JSON.stringify(spec), { "content-type": "application/json" }, "/api/v1/calibrate"),
    );
    await client(base)("/api/v1/competitions"); // still up
    figures.push(await rejectedAtOnce(base, player.auth, n));
    figures.push(...(await pinnedMemory(base, harness.apps[0].child.pid!, player.auth)));
    figures.push(...(await benchHostileLoad(harness)));
  } finally {
    await harness.stop();
  }
  figures.push(...(await rolesRacesInput()));
  return figures;
}

/**
 * Issue 24's red-team cases against the 10⁶-row competition "hostile" on `base` (the app's process
 * `pid`): 100 slow chunked uploads from 100 accounts (12 KB each, then a byte every 5 s) and 20
 * slow downloads of a file stored as a few hundred KB that unpacks to ~50 MB, at once, with the
 * app's resident memory sampled every 0.5 s against its value before (the target: < 100 MB more);
 * and a 125 MB multipart upload from an account in no team (the target: refused before 1 MB of
 * it is read).
 */
async function pinnedMemory(base: string, pid: number, uploader: { authorization: string }): Promise<Figure[]> {
  const figures: Figure[] = [];
  const path = "/api/v1/competitions/hostile/submissions";
  const n = 1_000_000;

  // A file that unpacks to ~50 MB and is stored compressed as a few hundred KB: predictions padded with spaces.
  const padded = syntheticPredictions(n, 7)
    .split("\n")
    .map((line, i) => (i ? `${line}${" ".repeat(40)}` : line))
    .join("\n");
  const stored = await client(base, uploader)(path, { csv: padded });
  const players = [];
  for (let i = 0; i < 100; i += 10) players.push(...(await Promise.all(Array.from({ length: 10 }, (_, k) => newCompetitor(base, "hostile", `Slow ${i + k}`)))));
  await new Promise((r) => setTimeout(r, 3000));
  const before = rssMb(pid);

  const chunk = (data: string) => `${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`;
  const head = syntheticPredictions(n, 9).slice(0, 12 * 1024);
  const uploads = players.map((p) => {
    const upload = openRequest(base, path, { ...p.auth, "content-type": "text/csv", "transfer-encoding": "chunked" });
    upload.write(chunk(head));
    return upload;
  });
  let k = 0;
  const trickle = setInterval(() => uploads.forEach((u) => u.write(chunk(String(k++ % 10)))), 5000);
  const downloads = Array.from({ length: 20 }, () => openRequest(base, `${path}/${stored.id}/file`, { ...uploader }, "GET"));
  // Each download reads its first 64 KB, then stops reading (a slow reader).
  await Promise.all(
    downloads.map(async (d) => {
      while (d.received < 64 * 1024) await new Promise((r) => setTimeout(r, 20));
      d.pause();
    }),
  );
  let peak = before;
  const started = Date.now();
  while (Date.now() - started < 50_000) {
    peak = Math.max(peak, rssMb(pid));
    await new Promise((r) => setTimeout(r, 500));
  }
  clearInterval(trickle);
  const statuses = new Map<string, number>();
  for (const u of uploads) {
    const status = String((await u.answer(0))?.status ?? "still being read");
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    u.close();
  }
  downloads.forEach((d) => d.close());
  figures.push({
    name: "100 slow uploads + 20 slow downloads: memory",
    value: peak - before,
    unit: "MB",
    note: `resident memory ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most over 50 s (ratio ${(peak / before).toFixed(2)}); uploads after 50 s: ${[...statuses].map(([s, c]) => `${c} × ${s}`).join(", ")}; download file ${(padded.length / 1e6).toFixed(0)} MB`,
  });

  // 125 MB of multipart from an account in no team: first its first 64 KiB only, waiting for the
  // answer; then 8 of them at once, each sent as fast as the connection takes it.
  const outsider = await newApiUser(base, "outsider");
  const boundary = "----quiltboard-bench";
  const size = 125 * 1024 * 1024;
  const formHead = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.csv"\r\ncontent-type: text/csv\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const open = () => {
    const upload = openRequest(base, path, { ...outsider.auth, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(size) });
    upload.write(formHead);
    return upload;
  };
  /** The next part of a well-formed body of exactly `size` bytes, after `sent` of them. */
  const next = (sent: number) =>
    size - sent > 64 * 1024 + tail.length ? Buffer.alloc(64 * 1024, "r") : Buffer.concat([Buffer.alloc(size - sent - tail.length, "r"), Buffer.from(tail)]);
  const stalled = open();
  const t = performance.now();
  stalled.write(next(stalled.sent));
  const refused = await stalled.answer(10_000);
  stalled.close();
  figures.push({
    name: "125 MB multipart from a non-member: first 64 KiB",
    value: performance.now() - t,
    unit: "ms",
    note: refused
      ? `answered ${refused.status} having received ${(stalled.sent / 1024).toFixed(0)} KiB of 125 MiB`
      : `no answer within 10 s with ${(stalled.sent / 1024).toFixed(0)} KiB sent: the server waits for the rest`,
  });
  const start = rssMb(pid);
  let top = start;
  const sampler = setInterval(() => (top = Math.max(top, rssMb(pid))), 100);
  const floods = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const upload = open();
      let answer = await upload.answer(0);
      while (!answer && upload.sent < size) {
        if (!upload.write(next(upload.sent))) await Promise.race([upload.drained(), new Promise((r) => setTimeout(r, 1000))]);
        answer = await upload.answer(0);
      }
      answer ??= await upload.answer(60_000);
      upload.close();
      return { status: answer?.status, sent: upload.sent };
    }),
  );
  clearInterval(sampler);
  figures.push({
    name: "8 × 125 MB multipart from a non-member, at once: memory",
    value: top - start,
    unit: "MB",
    note: `answers ${[...new Set(floods.map((f) => f.status))].join(", ")}; each client had pushed at most ${(Math.max(...floods.map((f) => f.sent)) / 1024 / 1024).toFixed(1)} MiB into its connection when answered (socket buffers included)`,
  });
  return figures;
}

/** The median time of GET `path` on `base`, asked every 50 ms while `during` runs. */
async function medianWhile(base: string, path: string, during: Promise<unknown>): Promise<number> {
  let done = false;
  void during.finally(() => (done = true));
  const times: number[] = [];
  while (!done) {
    const t = performance.now();
    await (await fetch(`${base}${path}`)).text();
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 50));
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
}

/**
 * Issue 24's free CPU: a 10⁶-row file in a shuffled order with an unknown id on its last line
 * costs a full parse and is refused (spending nothing). Six sent at once by one account: the
 * leaderboard's median answer time meanwhile, beside its median when the server is quiet.
 */
async function rejectedAtOnce(base: string, auth: { authorization: string }, n: number): Promise<Figure> {
  const lines = syntheticPredictions(n, 11).split("\n");
  const rows = seededShuffle(lines.slice(1), 12345);
  rows[rows.length - 1] = "not-an-id,a";
  const shuffled = [lines[0], ...rows].join("\n");
  const board = "/api/v1/competitions/hostile/leaderboard";
  const quiet = await medianWhile(base, board, new Promise((r) => setTimeout(r, 3000)));
  const sends = Promise.all(
    Array.from({ length: 6 }, () =>
      fetch(`${base}/api/v1/competitions/hostile/submissions`, { method: "POST", headers: { ...auth, "content-type": "text/csv" }, body: shuffled }).then((r) => r.status),
    ),
  );
  const busy = await medianWhile(base, board, sends);
  const statuses = await sends;
  return {
    name: "6 shuffled files rejected at their end, one account, at once: leaderboard p50",
    value: busy,
    unit: "ms",
    note: `quiet p50 ${quiet.toFixed(0)} ms (ratio ${(busy / quiet).toFixed(1)}); answers ${[...new Set(statuses)].map((s) => `${statuses.filter((t) => t === s).length} × ${s}`).join(", ")}`,
  };
}

/**
 * Issue 39's roles, races and input (docs/red-team.md, "Roles, races and input"), on an app of its
 * own with a mail catcher: how often each race is lost, and the timing gaps that told secrets
 * (whether an address has an account; the solution's row order), and what a sign-in costs with
 * issue 40's scrypt parameters.
 */
export async function rolesRacesInput(): Promise<Figure[]> {
  const mail = await startMailCatcher();
  process.env.MAIL_UI_URL = mail.webUrl;
  const harness = await startHarness(1, false, { env: { SMTP_URL: mail.smtpUrl } });
  const [base] = harness.urls;
  const figures: Figure[] = [];
  const tally = (results: { survived?: boolean; lost?: boolean }[]) => results.filter((r) => r.survived || r.lost).length;
  try {
    for (const kind of ["token", "session"] as const) {
      const results = [];
      for (let i = 0; i < 10; i++) results.push(await raceResetAgainst(base, kind, 5 * i));
      figures.push({
        name: `reset vs ${kind === "token" ? "API token" : "sign-in"} with the old password: survivors`,
        value: tally(results),
        unit: "of 10",
        note: `old password used 0–45 ms after the reset was sent; what it got: ${results.map((r) => `${r.attempt}${r.survived ? " (alive)" : ""}`).join(", ")}`,
      });
    }

    const { slug, organizer } = await publishOverApi(base, { settings: { maxTeamSize: 4, dailySubmissionLimit: 100 }, solution: syntheticSolution(1000) });
    const merges = [];
    for (let i = 0; i < 6; i++) merges.push(await raceDisqualifyAgainstMerge(base, slug, organizer.auth, 2 * i));
    figures.push({
      name: "disqualification vs merge acceptance: lost",
      value: tally(merges),
      unit: "of 6",
      note: `disqualify/accept statuses: ${merges.map((m) => `${m.disqualify}/${m.accept}${m.lost ? " (lost)" : ""}`).join(", ")}`,
    });

    const { existing, unknown } = await resetTimings(base, 16);
    const test = mannWhitney(existing, unknown);
    figures.push({
      name: "password reset: known − unknown address (medians)",
      value: percentile(existing, 50) - percentile(unknown, 50),
      unit: "ms",
      note: `known ${percentile(existing, 50).toFixed(0)} ms, unknown ${percentile(unknown, 50).toFixed(0)} ms, 16 each; Mann–Whitney z = ${test.z.toFixed(2)}, p = ${test.p.toPrecision(2)}`,
    });

    figures.push(await rowOrderGap(base));
    figures.push(...(await signInCost(base, harness.databaseUrl, harness.apps[0].child.pid!)));
  } finally {
    await harness.stop();
    await mail.stop();
  }
  return figures;
}

/**
 * Whether parse time tells the solution's row order: a competition of 10⁶ rows whose solution lists
 * its ids (r0 … r999999) in a secret shuffled order, and the same rejected file (an unknown id on
 * its last line: parsed to the end, nothing spent) sent in the solution's order, sorted, reversed
 * and in another shuffled order, five rounds, medians. The figure is the solution's order over the
 * other shuffled order: far below 1 when the order shows.
 */
async function rowOrderGap(base: string): Promise<Figure> {
  const n = 1_000_000;
  const [header, ...rows] = syntheticSolution(n).split("\n");
  const secret = seededShuffle(rows, 4242);
  const [predictionHeader, ...predictions] = syntheticPredictions(n, 5).split("\n");
  const byId = new Map(predictions.map((line) => [line.slice(0, line.indexOf(",")), line]));
  const inOrder = (ids: string[]) => {
    const lines = ids.map((id) => byId.get(id)!);
    lines[lines.length - 1] = "not-an-id,a";
    return [predictionHeader, ...lines].join("\n");
  };
  const idOf = (line: string) => line.slice(0, line.indexOf(","));
  const sorted = rows.map(idOf);
  const files: Record<string, string> = {
    "the solution's order": inOrder(secret.map(idOf)),
    sorted: inOrder(sorted),
    reversed: inOrder([...sorted].reverse()),
    "another shuffle": inOrder(seededShuffle(sorted, 77)),
  };
  // Building the files blocked the event loop for longer than the server keeps an idle connection:
  // let the client see those connections closed, or its next request goes out on one of them.
  await new Promise((r) => setTimeout(r, 200));
  const { slug } = await publishOverApi(base, { settings: { dailySubmissionLimit: 1000 }, solution: [header, ...secret].join("\n") });
  const player = await newCompetitor(base, slug);
  const post = (csv: string) => fetch(`${base}/api/v1/competitions/${slug}/submissions`, { method: "POST", headers: { ...player.auth, "content-type": "text/csv" }, body: csv });
  await (await post([predictionHeader, ...predictions].join("\n"))).text(); // decodes the solution and warms the parser
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(files).map((k) => [k, []]));
  for (let round = 0; round < 5; round++) {
    for (const [name, csv] of Object.entries(files)) {
      const start = performance.now();
      const answer = await post(csv);
      await answer.text();
      if (answer.status !== 422) throw new Error(`the rejected file (${name}) got ${answer.status}`);
      times[name].push(performance.now() - start);
    }
  }
  const medians = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, percentile(v, 50)]));
  return {
    name: "rejected 1e6-row file: solution's order ÷ another order",
    value: medians["the solution's order"] / medians["another shuffle"],
    unit: "ratio",
    note: `medians of 5: ${Object.entries(medians)
      .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
      .join(", ")}`,
  };
}

/**
 * What a sign-in costs (next-auth's credentials callback, which checks the password with scrypt):
 * the median of 10 in a row; 8 at once (the wall time, and the app's resident memory at most,
 * beside before); and the first and second sign-in of an account whose hash has issue 40's old
 * parameters (N = 2¹⁵), which the first rehashes.
 */
async function signInCost(base: string, databaseUrl: string, pid: number): Promise<Figure[]> {
  const user = await newApiUser(base, "signin");
  const timed = async (email: string, password: string) => {
    let start = 0;
    const session = await signInWithCookies(base, email, password, async () => void (start = performance.now()));
    if (!session.signedIn) throw new Error(`${email} could not sign in`);
    return performance.now() - start;
  };
  await timed(user.email, user.password);
  const alone = [];
  for (let i = 0; i < 10; i++) alone.push(await timed(user.email, user.password));
  const hash = await fetchHash(databaseUrl, user.email);

  const others = [];
  for (let i = 0; i < 8; i++) others.push(await newApiUser(base, "signin"));
  await new Promise((r) => setTimeout(r, 2000));
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const start = performance.now();
  await Promise.all(others.map((o) => timed(o.email, o.password)));
  const wall = performance.now() - start;
  clearInterval(sampler);

  const old = await newApiUser(base, "old-hash");
  const salt = randomBytes(16);
  const key = scryptSync(old.password.normalize("NFKC"), salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  await setHash(databaseUrl, old.email, ["scrypt", 2 ** 15, 8, 1, salt.toString("base64"), key.toString("base64")].join("$"));
  const first = await timed(old.email, old.password);
  const second = await timed(old.email, old.password);
  const after = await fetchHash(databaseUrl, old.email);
  // The baseline, in this process: one scrypt hash with each N, median of 3 (the machine is shared).
  const raw = (n: number) =>
    percentile(
      [0, 1, 2].map(() => {
        const start = performance.now();
        scryptSync("a long enough password", salt, 32, { N: n, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
        return performance.now() - start;
      }),
      50,
    );
  const [raw15, raw17] = [raw(2 ** 15), raw(2 ** 17)];
  return [
    {
      name: "sign-in, median of 10",
      value: percentile(alone, 50),
      unit: "ms",
      note: `stored hash ${hash.split("$").slice(0, 4).join("$")}; one scrypt hash in the bench's process: N = 2^15 ${raw15.toFixed(0)} ms, N = 2^17 ${raw17.toFixed(0)} ms`,
    },
    {
      name: "8 sign-ins at once: wall time",
      value: wall,
      unit: "ms",
      note: `app's resident memory ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most (+${(peak - before).toFixed(0)} MB)`,
    },
    {
      name: "first sign-in with an N = 2^15 hash",
      value: first,
      unit: "ms",
      note: `the second ${second.toFixed(0)} ms; the hash afterwards ${after.split("$").slice(0, 4).join("$")}`,
    },
  ];
}

async function fetchHash(databaseUrl: string, email: string): Promise<string> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query("SELECT password_hash FROM users WHERE email = $1", [email])).rows[0].password_hash;
  } finally {
    await db.end();
  }
}

async function setHash(databaseUrl: string, email: string, hash: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query("UPDATE users SET password_hash = $1 WHERE email = $2", [hash, email]);
  } finally {
    await db.end();
  }
}
