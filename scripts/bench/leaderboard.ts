import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Figure } from "./mechanism";
import { percentile } from "./stats";
import { startHarness } from "../harness";
import { publishOverApi, syntheticSolution } from "../../test/support/api";
import { seedBoard } from "../../test/support/board";

const TEAMS = 100_000;
const SUBMISSIONS = 1_000_000;
const PAGE = 50;
const VIEWERS = 20;
const VIEWER_SECONDS = 15;

async function fetchOk(url: string): Promise<number> {
  const response = await fetch(url);
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} → ${response.status}: ${text.slice(0, 200)}`);
  return text.length;
}

/** `count` sequential requests to `url(i)` after five that warm up: p50, p95 and the last answer's size. */
async function timeRequests(url: (i: number) => string, count: number): Promise<{ p50: number; p95: number; bytes: number }> {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count + 5; i++) {
    const start = performance.now();
    bytes = await fetchOk(url(i));
    if (i >= 5) samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), bytes };
}

/**
 * `VIEWERS` viewers for `VIEWER_SECONDS`, driven by wrk (Debian's `wrk`: 2 threads, keep-alive) in
 * a process of its own, as an outside load generator drives the app. `request` is the Lua expression
 * of each request's path, with `n` the request's count on its wrk thread and `page` a random page.
 * Answers per second and wrk's latency percentiles (an answer slower than 10 s counts as an error);
 * any error or non-2xx answer fails the bench.
 */
async function viewers(base: string, request: string, pages: number): Promise<{ perSecond: number; p50: number; p90: number; p99: number; count: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), "quiltboard-wrk-"));
  const script = path.join(dir, "viewers.lua");
  writeFileSync(
    script,
    `local n = 0
request = function()
  n = n + 1
  local page = math.random(1, ${pages})
  return wrk.format("GET", ${request})
end
done = function(summary, latency)
  local e = summary.errors
  io.write(string.format('{"count":%d,"seconds":%f,"errors":%d,"p50":%f,"p90":%f,"p99":%f}\\n', summary.requests, summary.duration / 1e6,
    e.connect + e.read + e.write + e.status + e.timeout, latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000))
end
`,
  );
  // wrk tries only the first address a name resolves to, which may be ::1; the app listens on IPv4.
  const wrk = spawn("wrk", ["-t2", `-c${VIEWERS}`, `-d${VIEWER_SECONDS}s`, "--timeout", "10s", "-s", script, base.replace("//localhost:", "//127.0.0.1:")]);
  let output = "";
  wrk.stdout.on("data", (d: Buffer) => (output += d));
  wrk.stderr.on("data", (d: Buffer) => (output += d));
  const status = await new Promise<number | null>((resolve, reject) => {
    wrk.once("error", (error) => reject(new Error(`wrk could not run (${error.message}): install it (Debian: apt-get install wrk)`)));
    wrk.once("close", resolve);
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
  const line = output.split("\n").find((l) => l.startsWith("{"));
  if (status !== 0 || !line) throw new Error(`wrk failed (exit ${status}): ${output}`);
  const result = JSON.parse(line) as { count: number; seconds: number; errors: number; p50: number; p90: number; p99: number };
  if (result.errors > 0) throw new Error(`wrk saw ${result.errors} socket errors or non-2xx answers among ${result.count} requests: ${output}`);
  return { perSecond: result.count / result.seconds, p50: result.p50, p90: result.p90, p99: result.p99, count: result.count };
}

/** Rows of the teams table PostgreSQL read (sequential and index fetches) since the last call, as its statistics count them. */
async function teamRowsRead(db: pg.Client): Promise<() => Promise<number>> {
  const read = async () => {
    const { rows } = await db.query<{ n: string }>("SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n FROM pg_stat_user_tables WHERE relname = 'teams'");
    return Number(rows[0].n);
  };
  let before = await read();
  return async () => {
    // A backend flushes its counters when it goes idle, at most once a second, else after 10 s idle.
    await new Promise((r) => setTimeout(r, 11_000));
    const after = await read();
    const delta = after - before;
    before = after;
    return delta;
  };
}

/**
 * The live board at Kaggle's largest scale (issue 26): 100,000 teams and 1,000,000 submissions
 * inserted in bulk on the embedded PostgreSQL; a page of 50 and the team page one request at a
 * time (p50/p95 over 200 each, from this process), the rows of the teams table one page reads, 20
 * viewers driven by wrk (random pages, the outside check's mix, the HTML page), a page just after the
 * board moved (its order rebuilt), the 20 viewers while the board moves twice a second, and the
 * whole board as CSV.
 */
export async function benchLeaderboard(): Promise<Figure[]> {
  const server = await startHarness(1, false, { embedded: true });
  const [base] = server.urls;
  const figures: Figure[] = [];
  try {
    const { slug } = await publishOverApi(base, {
      settings: { slug: "bench-board" },
      solution: syntheticSolution(1000),
      mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 20 },
    });

    const seeded = performance.now();
    const competitionId = await seedBoard(server.databaseUrl, slug, TEAMS, SUBMISSIONS);
    const db = new pg.Client({ connectionString: server.databaseUrl });
    db.on("error", () => {}); // the database stops in `finally`; the error that got there is the one to report
    await db.connect();
    const counts = await db.query("SELECT (SELECT count(*) FROM teams) AS teams, (SELECT count(*) FROM submissions) AS submissions");
    figures.push({
      name: "seeded teams / submissions",
      value: Number(counts.rows[0].submissions),
      unit: "submissions",
      note: `${counts.rows[0].teams} teams, ${((performance.now() - seeded) / 1000).toFixed(0)} s to insert`,
    });
    // A team in the middle of the board, for the team page.
    const {
      rows: [middle],
    } = await db.query("SELECT id FROM teams WHERE competition_id = $1 ORDER BY best_value DESC OFFSET $2 LIMIT 1", [competitionId, TEAMS / 2]);

    const api = `${base}/api/v1/competitions/${slug}/leaderboard`;
    const pages = TEAMS / PAGE;
    const rowsRead = await teamRowsRead(db);
    await fetchOk(`${api}?page=1&pageSize=${PAGE}`); // the first request after the insert may build what later ones read
    await rowsRead();
    await fetchOk(`${api}?page=${pages / 2}&pageSize=${PAGE}`);
    figures.push({ name: "teams rows read by one page of 50", value: await rowsRead(), unit: "rows", note: `page ${pages / 2} of ${pages}, from pg_stat_user_tables` });
    await fetchOk(`${base}/api/v1/competitions/${slug}/teams/${middle.id}`);
    figures.push({ name: "teams rows read by one team page", value: await rowsRead(), unit: "rows", note: `a team ranked near ${TEAMS / 2}` });

    for (const [name, url] of [
      [`leaderboard API, page 1 of ${pages}`, () => `${api}?page=1&pageSize=${PAGE}`],
      [`leaderboard API, page ${pages / 2} of ${pages}`, () => `${api}?page=${pages / 2}&pageSize=${PAGE}`],
      ["leaderboard API, random page of 50", (i: number) => `${api}?page=${1 + ((i * 7919) % pages)}&pageSize=${PAGE}`],
      ["team page API (rank by id)", () => `${base}/api/v1/competitions/${slug}/teams/${middle.id}`],
      ["leaderboard API, search", () => `${api}?q=Team%2012345&pageSize=${PAGE}`],
      ["leaderboard page (HTML)", () => `${base}/competitions/${slug}/leaderboard`],
    ] as const) {
      const t = await timeRequests(url, 200);
      figures.push({ name: `${name} p95`, value: t.p95, unit: "ms", note: `p50 ${t.p50.toFixed(1)} ms, ${(t.bytes / 1024).toFixed(0)} KiB` });
    }

    // 20 viewers through wrk: random pages of 50; the mix an outside check used (page 1 three times in
    // four, a random page the fourth); and the leaderboard page itself (HTML, its first 50 rows).
    const apiPath = (page: string) => `"/api/v1/competitions/${slug}/leaderboard?pageSize=${PAGE}&page=" .. ${page}`;
    for (const [name, request] of [
      ["random pages of 50 (API)", apiPath("page")],
      ["page 1, every fourth a random page (API)", apiPath("(n % 4 == 0 and page or 1)")],
      ["the leaderboard page (HTML)", `"/competitions/${slug}/leaderboard"`],
    ]) {
      const seen = await viewers(base, request, pages);
      figures.push({
        name: `${VIEWERS} viewers through wrk: ${name}`,
        value: seen.perSecond,
        unit: "pages/s",
        note: `p50 ${seen.p50.toFixed(0)} ms, p90 ${seen.p90.toFixed(0)} ms, p99 ${seen.p99.toFixed(0)} ms, ${seen.count} pages in ${VIEWER_SECONDS} s`,
      });
    }

    // The board moving: a team's shown answer changes (through the teams trigger, as a scoring
    // transaction changes it), then a page is read, which rebuilds this instance's order first.
    const move = () =>
      db.query("UPDATE teams SET best_value = random() WHERE id = (SELECT id FROM teams WHERE competition_id = $1 OFFSET floor(random() * $2) LIMIT 1)", [competitionId, TEAMS]);
    const moved: number[] = [];
    for (let i = 0; i < 20; i++) {
      await move();
      const start = performance.now();
      await fetchOk(`${api}?page=${1 + ((i * 7919) % pages)}&pageSize=${PAGE}`);
      moved.push(performance.now() - start);
    }
    figures.push({
      name: "a page just after the board moved p95",
      value: percentile(moved, 95),
      unit: "ms",
      note: `p50 ${percentile(moved, 50).toFixed(0)} ms: the order rebuilt first`,
    });
    // A deadline rush: the board moves twice a second while 20 viewers read it.
    let rushing = true;
    const rush = (async () => {
      while (rushing) {
        await move();
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const rushed = await viewers(base, apiPath("page"), pages);
    rushing = false;
    await rush;
    figures.push({
      name: `${VIEWERS} viewers through wrk while the board moves twice a second: random pages of 50 (API)`,
      value: rushed.perSecond,
      unit: "pages/s",
      note: `p50 ${rushed.p50.toFixed(0)} ms, p90 ${rushed.p90.toFixed(0)} ms, p99 ${rushed.p99.toFixed(0)} ms, ${rushed.count} pages in ${VIEWER_SECONDS} s`,
    });

    for (const [name, url] of [
      ["leaderboard API, default answer", api],
      ["leaderboard CSV export, all entries", `${api}?format=csv`],
    ] as const) {
      const t = await timeRequests(() => url, 10);
      figures.push({ name: `${name} p95`, value: t.p95, unit: "ms", note: `p50 ${t.p50.toFixed(0)} ms, ${(t.bytes / 1024).toFixed(0)} KiB, 10 requests` });
    }
    await db.end();
  } finally {
    await server.stop();
  }
  return figures;
}
