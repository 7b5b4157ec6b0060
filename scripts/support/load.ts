// Load from outside, for the hostile e2e tests and `npm run bench -- hostile` (issue 39): an app's
// memory and answers watched while something runs, uploads that trickle in, padded files, the pool.
import { readFileSync } from "node:fs";
import http from "node:http";
import { demoPredictionsCsv } from "../../prisma/demo-solution";
import { openRequest } from "./rest-client";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process's resident memory in MB (Linux: /proc). */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}

/**
 * Runs `during` while sampling the app's resident memory every 100 ms and asking it for the list of
 * competitions every 250 ms: the peak growth over the memory before, the slowest answer and how many
 * went unanswered.
 */
export async function watch<T>(base: string, pid: number, during: () => Promise<T>) {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // the process has ended (or is ending): there is no memory left to sample, and `during` hears of it
    }
  }, 100);
  let done = false;
  let slowest = 0;
  let unanswered = 0;
  const pinger = (async () => {
    while (!done) {
      const started = performance.now();
      // A new connection each time (no keep-alive): a kept one the server closed while this process
      // was busy would fail for this process's sake, not the server's.
      const status = await new Promise<number>((resolve) =>
        http.get(`${base}/api/v1/competitions`, { agent: false }, (response) => response.resume().on("end", () => resolve(response.statusCode ?? 0))).on("error", () => resolve(0)),
      );
      if (status !== 200) unanswered++; // 0: the connection refused or reset, the server down
      slowest = Math.max(slowest, performance.now() - started);
      await sleep(250);
    }
  })();
  try {
    const result = await during();
    return { result, grewMb: peak - before, slowestMs: slowest, unanswered };
  } finally {
    done = true;
    clearInterval(sampler);
    await pinger;
  }
}

/** A valid submission with `pad` spaces after each prediction (which are trimmed). */
export function padded(seed: string, pad: number): string {
  return demoPredictionsCsv({ skill: 0.7, seed })
    .split("\n")
    .map((line, i) => (i && line ? `${line}${" ".repeat(pad)}` : line))
    .join("\n");
}

/**
 * Keeps an upload of `body` to `path` trickling in at about `bytesPerSecond` (a piece every 100 ms),
 * opening another as soon as the server answers one, until `stop`; the answers it got.
 */
export function trickle(base: string, path: string, headers: Record<string, string>, body: string, bytesPerSecond: number) {
  const answers: { status: number; message: string }[] = [];
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const upload = openRequest(base, path, { ...headers, "content-length": String(body.length) });
      let at = 0;
      for (;;) {
        const answer = await upload.answer(0);
        if (answer) {
          answers.push({ status: answer.status, message: answer.body.error?.message ?? "" });
          break;
        }
        if (stopped) break;
        const piece = Math.max(1, Math.round(bytesPerSecond / 10));
        if (at < body.length) upload.write(body.slice(at, (at += piece)));
        await sleep(100);
      }
      upload.close();
    }
  })();
  return {
    answers,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

/** An app's database pool as its metrics say (`token`: its METRICS_TOKEN): connections open, idle, and queries waiting for one. */
/** The app's memory outside V8's heap, in MB (prom-client's nodejs_external_memory_bytes: buffers and typed arrays among it), from GET /api/metrics. */
export async function externalMbOf(base: string, token: string): Promise<number> {
  const text = await (await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  return Number(/^nodejs_external_memory_bytes (\d+)/m.exec(text)?.[1]) / 1024 / 1024;
}

export async function poolOf(base: string, token: string): Promise<{ total: number; idle: number; waiting: number }> {
  const text = await (await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const value = (state: string) => Number(new RegExp(`^quiltboard_db_pool_connections\\{state="${state}"\\} (\\d+)`, "m").exec(text)?.[1]);
  return { total: value("total"), idle: value("idle"), waiting: value("waiting") };
}
