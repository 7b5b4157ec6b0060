import type { Figure } from "./mechanism";
import { benchHostileLoad } from "./hostile-load";
import { readOnlyBaseline } from "./scoring";
import { startHarness } from "../harness";
import { client, newApiUser, newCompetitor, openRequest, publishOverApi, syntheticPredictions, syntheticSolution } from "../../test/support/api";
import { rssMb } from "../../test/support/load";

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
  const rows = lines.slice(1);
  let x = 12345;
  for (let i = rows.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
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
