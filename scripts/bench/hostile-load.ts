import pg from "pg";
import type { Figure } from "./mechanism";
import type { startHarness } from "../harness";
import { client, newApiUser, newCompetitor, openRequest, publishOverApi, syntheticPredictions, syntheticSolution } from "../support/rest-client";
import { seedBoard } from "../support/board";
import { rssMb, trickle, watch } from "../support/load";

type Harness = Awaited<ReturnType<typeof startHarness>>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 39's resources that one account could hold or exhaust, each as the red team measured it
 * (docs/red-team.md keeps the figures before and after): upload slots held by trickles, an
 * account's uploads over two instances, concurrent solution uploads, unread leaderboard exports,
 * the warm-up's preloads, and large organizer uploads whose write waits. Runs on `harness`, two app
 * instances on one database; the last case restarts the first one.
 */
export async function benchHostileLoad(harness: Harness): Promise<Figure[]> {
  const figures: Figure[] = [];
  const [base, other] = harness.urls;
  figures.push(await trickledSlots(base));
  figures.push(await slotsOverInstances(base, other));
  figures.push(...(await lockedOrganizerUploads(base, harness.databaseUrl)));
  figures.push(await unreadExports(base, harness));
  figures.push(await concurrentSolutions(base, harness));
  figures.push(await warmUp(harness));
  return figures.map((f) => ({ ...f, note: `${f.note}; before (143926e): ${BEFORE[f.name]}` }));
}

/** The same cases on the code before issue 39 (commit 143926e, this file run there; docs/red-team.md). */
const BEFORE: Record<string, string> = {
  "4 trickled uploads (2 accounts): a 3rd account's submission": "503 after 30.0 s, three times; the trickles never answered",
  "an account's 3rd upload, on another instance": "201",
  "a 83 MB solution (2·10⁶ rows)": "500 after 48.4 s",
  "the same, waiting 6 s for its draft's lock": "500 after 20.3 s",
  "a 47 MB data file, waiting 6 s for its lock": "500 after 6.8 s",
  "40 unread exports of a 100,000-team board: a page": "27.4 s; exports answered 40 × 200; memory +793 MB",
  "6 concurrent 1e6-row solution uploads, 1 account": "+815 MB; answers 6 × 500; slowest other request 17.7 s",
  "a fresh instance, 3 live 1e6-row competitions (1 in use)": "+111 MB, 3 solutions preloaded in 1.6 s (this case alone, on an empty database)",
};

/** Two accounts each trickle two padded submissions in at ~650 B/s, reopening them as they end; a third account submits three times meanwhile. */
async function trickledSlots(base: string): Promise<Figure> {
  const n = 400;
  const { slug } = await publishOverApi(base, { solution: syntheticSolution(n), settings: { dailySubmissionLimit: 1000 } });
  const path = `/api/v1/competitions/${slug}/submissions`;
  const attackers = await Promise.all([newCompetitor(base, slug), newCompetitor(base, slug)]);
  const honest = await newCompetitor(base, slug);
  const body = syntheticPredictions(n, 5)
    .split("\n")
    .map((line, i) => (i ? `${line}${" ".repeat(200)}` : line))
    .join("\n");
  const trickles = attackers.flatMap((a) => [0, 1].map(() => trickle(base, path, { ...a.auth, "content-type": "text/csv" }, body, 650)));
  await sleep(1000);
  const answers: { status: number; ms: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const response = await fetch(`${base}${path}`, { method: "POST", headers: { ...honest.auth, "content-type": "text/csv" }, body: syntheticPredictions(n, 100 + i) });
    await response.text();
    answers.push({ status: response.status, ms: performance.now() - started });
    await sleep(1300);
  }
  await Promise.all(trickles.map((t) => t.stop()));
  const cut = trickles.flatMap((t) => t.answers.map((a) => a.status));
  return {
    name: "4 trickled uploads (2 accounts): a 3rd account's submission",
    value: Math.max(...answers.map((a) => a.ms)),
    unit: "ms",
    note: `slowest of 3 (${answers.map((a) => `${a.status} in ${(a.ms / 1000).toFixed(1)} s`).join(", ")}); the trickles were answered ${cut.length ? cut.join(", ") : "never"}`,
  };
}

/** An account with two uploads in progress on one instance sends a third to another. */
async function slotsOverInstances(base: string, other: string): Promise<Figure> {
  const n = 400;
  const { slug } = await publishOverApi(base, { solution: syntheticSolution(n), settings: { dailySubmissionLimit: 1000 } });
  const { auth } = await newCompetitor(base, slug);
  const csv = syntheticPredictions(n, 7);
  const path = `/api/v1/competitions/${slug}/submissions`;
  const slow = [0, 1].map(() => {
    const upload = openRequest(base, path, { ...auth, "content-type": "text/csv", "content-length": String(csv.length) });
    upload.write(csv.slice(0, 1000));
    return upload;
  });
  await sleep(500);
  const third = await fetch(`${other}${path}`, { method: "POST", headers: { ...auth, "content-type": "text/csv" }, body: csv });
  const message = third.ok ? "" : ` "${(await third.json()).error.message.slice(0, 60)}…"`;
  slow.forEach((u) => u.close());
  return { name: "an account's 3rd upload, on another instance", value: third.status, unit: "status", note: `two in progress on the first instance${message}` };
}

/**
 * A 2·10⁶-row solution (the most a solution may have) with nothing in its way; then it again and a
 * 47 MB data file, each while another transaction holds the lock its write needs until 6 s after
 * the write began to wait (as a busy database or a concurrent change would keep it).
 */
async function lockedOrganizerUploads(base: string, databaseUrl: string): Promise<Figure[]> {
  const organizer = await newApiUser(base, "organizer");
  const slug = `locked-${Date.now().toString(36)}`;
  await organizer.call("/api/v1/competitions", { json: { slug, title: slug, metric: { name: "accuracy" }, endsAt: new Date(Date.now() + 86_400_000).toISOString() } });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const {
    rows: [{ id }],
  } = await db.query("SELECT id FROM competitions WHERE slug = $1", [slug]);
  const rows = ["id,label,split,group"];
  for (let i = 0; i < 2_000_000; i++) rows.push(`household-${String(i).padStart(12, "0")},${i % 3 ? "a" : "b"},${i % 2 ? "public" : "holdout"},g-${i >> 1}`);
  const solution = rows.join("\n");
  const data = new Uint8Array(45 * 1024 * 1024).fill(97);
  const upload = async (send: () => Promise<Response>) => {
    const started = performance.now();
    const response = await send();
    await response.text();
    return { status: response.status, ms: performance.now() - started };
  };
  const putSolution = () => fetch(`${base}/api/v1/competitions/${slug}/solution`, { method: "PUT", headers: { ...organizer.auth, "content-type": "text/csv" }, body: solution });
  const postData = () => {
    const form = new FormData();
    form.set("file", new Blob([data], { type: "text/csv" }), "train.csv");
    return fetch(`${base}/api/v1/competitions/${slug}/attachments`, { method: "POST", headers: organizer.auth, body: form });
  };
  const watcher = new pg.Client({ connectionString: databaseUrl });
  await watcher.connect();
  const {
    rows: [{ holder }],
  } = await db.query("SELECT pg_backend_pid() AS holder");
  /** `send` while a transaction of the bench holds `lock`, until 6 s after the upload's write began to wait for it. */
  const whileLocked = async (lock: string, values: unknown[], send: () => Promise<Response>) => {
    await db.query("BEGIN");
    await db.query(lock, values);
    const answer = upload(send);
    const deadline = Date.now() + 120_000;
    const waiting = async () => (await watcher.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [holder])).rows[0].n > 0;
    while (Date.now() < deadline && !(await waiting())) await sleep(100);
    await sleep(6000);
    await db.query("COMMIT");
    return answer;
  };
  const free = await upload(putSolution);
  const solutionLocked = await whileLocked("SELECT 1 FROM competitions WHERE id = $1 FOR UPDATE", [id], putSolution);
  const fileLocked = await whileLocked("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`attachments:${id}`], postData);
  await Promise.all([db.end(), watcher.end()]);
  const mb = (solution.length / 1e6).toFixed(0);
  return [
    { name: `a ${mb} MB solution (2·10⁶ rows)`, value: free.ms, unit: "ms", note: `answered ${free.status}` },
    { name: `the same, waiting 6 s for its draft's lock`, value: solutionLocked.ms, unit: "ms", note: `answered ${solutionLocked.status}` },
    { name: "a 47 MB data file, waiting 6 s for its lock", value: fileLocked.ms, unit: "ms", note: `answered ${fileLocked.status}` },
  ];
}

/** 40 anonymous CSV exports of a 100,000-team board, never read past their first bytes, while ordinary pages are asked for. */
async function unreadExports(base: string, harness: Harness): Promise<Figure> {
  const { slug } = await publishOverApi(base, { solution: syntheticSolution(1000) });
  await seedBoard(harness.databaseUrl, slug, 100_000);
  const board = `/api/v1/competitions/${slug}/leaderboard`;
  const page = async () => {
    const started = performance.now();
    await (await fetch(`${base}${board}?page=500&pageSize=50`)).text();
    return performance.now() - started;
  };
  await page();
  const quiet = await page();
  const { result, grewMb } = await watch(base, harness.apps[0].child.pid!, async () => {
    const exports = Array.from({ length: 40 }, () => openRequest(base, `${board}?format=csv`, {}, "GET"));
    const deadline = Date.now() + 120_000;
    while (!exports.every((e) => e.head()) && Date.now() < deadline) await sleep(50);
    exports.forEach((e) => e.pause());
    await sleep(1000);
    const pages = [await page(), await page(), await page()];
    return { exports, pages };
  });
  const statuses = result.exports.map((e) => e.head()?.status ?? 0);
  result.exports.forEach((e) => e.close());
  return {
    name: "40 unread exports of a 100,000-team board: a page",
    value: Math.max(...result.pages),
    unit: "ms",
    note: `slowest of 3 pages meanwhile (quiet ${quiet.toFixed(0)} ms); exports answered ${count(statuses)}; memory +${grewMb.toFixed(0)} MB`,
  };
}

/** Six 10⁶-row solution uploads by one account to its own draft, at once. */
async function concurrentSolutions(base: string, harness: Harness): Promise<Figure> {
  const organizer = await newApiUser(base, "organizer");
  const slug = `solutions-${Date.now().toString(36)}`;
  await organizer.call("/api/v1/competitions", { json: { slug, title: slug, metric: { name: "accuracy" }, endsAt: new Date(Date.now() + 86_400_000).toISOString() } });
  const rows = ["id,label,split,group"];
  for (let i = 0; i < 1_000_000; i++) rows.push(`household-${String(i).padStart(9, "0")},${i % 3 ? "a" : "b"},${i % 2 ? "public" : "holdout"},g-${i >> 1}`);
  const solution = rows.join("\n");
  await sleep(2000);
  const { result, grewMb, slowestMs, unanswered } = await watch(base, harness.apps[0].child.pid!, () =>
    Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${base}/api/v1/competitions/${slug}/solution`, { method: "PUT", headers: { ...organizer.auth, "content-type": "text/csv" }, body: solution }).then(
          async (r) => (await r.text(), r.status),
          () => 0,
        ),
      ),
    ),
  );
  const alive = harness.apps[0].child.exitCode === null && harness.apps[0].child.signalCode === null;
  if (!alive) await harness.restart(0);
  return {
    name: "6 concurrent 1e6-row solution uploads, 1 account",
    value: grewMb,
    unit: "MB",
    note: `resident memory's growth; answers ${count(result)} (0: connection reset); slowest other request ${slowestMs.toFixed(0)} ms, ${unanswered} unanswered${alive ? "" : "; the app died"}`,
  };
}

/**
 * A fresh instance's warm-up with three live competitions of 10⁶ rows of which one was submitted to:
 * the solutions it preloaded and the time they took (its log's "scoring warmed up"), and its memory
 * once done, beside a fresh instance's without those competitions.
 */
async function warmUp(harness: Harness): Promise<Figure> {
  const settled = async () => {
    await harness.restart(0);
    let output = "";
    harness.apps[0].child.stdout?.on("data", (d: Buffer) => (output += d));
    const deadline = Date.now() + 120_000;
    while (!output.includes('"msg":"scoring warmed up"') && Date.now() < deadline) await sleep(200);
    await sleep(2000);
    const line = output.split("\n").find((l) => l.includes('"msg":"scoring warmed up"'));
    return { rss: rssMb(harness.apps[0].child.pid!), warmed: line ? (JSON.parse(line) as { solutions: number; solutionsMs: number }) : null };
  };
  const without = await settled();
  const n = 1_000_000;
  const slugs: string[] = [];
  for (let i = 0; i < 3; i++) slugs.push((await publishOverApi(harness.urls[0], { solution: syntheticSolution(n), settings: { dailySubmissionLimit: 1000 } })).slug);
  const player = await newCompetitor(harness.urls[0], slugs[0]);
  await client(harness.urls[0], player.auth)(`/api/v1/competitions/${slugs[0]}/submissions`, { csv: syntheticPredictions(n, 1) });
  const withThem = await settled();
  const said = (w: typeof without) => (w.warmed ? `${w.warmed.solutions} solutions in ${w.warmed.solutionsMs} ms` : "its log not seen");
  return {
    name: "a fresh instance, 3 live 1e6-row competitions (1 in use)",
    value: withThem.rss - without.rss,
    unit: "MB",
    note: `resident memory once warmed up: ${withThem.rss.toFixed(0)} MB (preloaded ${said(withThem)}), without those competitions ${without.rss.toFixed(0)} MB (${said(without)})`,
  };
}

/** "2 × 200, 1 × 503" */
function count(statuses: number[]): string {
  return [...new Set(statuses)].map((s) => `${statuses.filter((t) => t === s).length} × ${s}`).join(", ");
}
