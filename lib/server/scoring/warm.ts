import "server-only";
import { randomUUID } from "node:crypto";
import { submit } from "./submit";
import { scoringData } from "./upload";
import { COMPETITION_SELECT, metricOf } from "@/lib/server/competitions/competitions";
import { solutionCache } from "@/lib/server/competitions/solution-cache";
import { shapesOf } from "@/lib/server/competitions/solutions";
import { readCsvUpload } from "@/lib/server/platform/csv-upload";
import { openUpload } from "@/lib/server/platform/uploads";
import { db } from "@/lib/server/platform/db";
import { env } from "@/lib/server/platform/env";
import { AppError } from "@/lib/server/platform/errors";
import { log } from "@/lib/server/platform/log";
import { PackedStrings } from "@/lib/csv/strings";
import { createSubmissionParser, submissionKey } from "@/lib/csv/submission";
import { evaluateSplit } from "@/lib/metrics/registry";
import { sketchOf } from "@/lib/metrics/sketch";

/** Rows of each synthetic file, and how many times each is read: enough for V8 to optimise the reader's loops. */
const WARM_ROWS = 50_000;
const WARM_ROUNDS = 4;

let warming: Promise<void> | undefined;

/**
 * Makes this app instance's first submission cost what its later ones do (docs/performance.md, "One submission"):
 * V8 compiles the byte-level CSV reader and the submission parser to optimised code only after
 * they have run hot for a while, a competition's solution is decoded and indexed on its first
 * submission, and a statement's first run in a process costs several times its later ones. So,
 * once per process, synthetic files are read through the very functions an upload goes through,
 * from a request's body arriving in pieces (the body's limits and upload slot, hash, gzip copy,
 * reader, id and class look-ups, in the solution's order and out of it, class and number
 * predictions), and then the solutions of the competitions that took submissions recently are
 * decoded, indexed and scored, and their submission checks run, one after the other, within half the
 * solution cache (preloadSolutions). Started by the first
 * GET /api/health, which the app's process asks itself for as soon as it listens
 * (server/http-preload.mjs): it has to run in the route handlers' module instances, which Next.js
 * keeps apart from instrumentation's.
 * Nothing it does is needed for correctness; a failure is logged and forgotten (a competition that
 * fails does not keep the others from being preloaded). Each step lets other requests in before
 * the next: the app is already serving.
 */
export function warmScoring(): Promise<void> {
  warming ??= (async () => {
    const started = performance.now();
    await warmParsers().catch((error: Error) => log.warn({ err: error.message }, "warming the upload path failed"));
    const parsed = performance.now();
    const preloaded = await preloadSolutions();
    log.info({ parsersMs: Math.round(parsed - started), solutions: preloaded, solutionsMs: Math.round(performance.now() - parsed) }, "scoring warmed up");
  })().catch((error: Error) => log.warn({ err: error.message }, "warming the scoring path failed"));
  return warming;
}

/** An account in no team of any competition (its id is made up): what the warm-up submits as. */
const NO_ONE = { id: randomUUID(), email: "warm-up@quiltboard.invalid", name: "warm-up", role: "user" } as const;

const otherRequests = () => new Promise((resolve) => setImmediate(resolve));

async function warmParsers(): Promise<void> {
  const ids = Array.from({ length: WARM_ROWS }, (_, r) => `warm-${r}`);
  const key = (classes: string[] | null) => submissionKey({ ids: PackedStrings.fromStrings(ids), classes });
  const classKey = key(["no", "yes"]);
  const numberKey = key(null);
  const file = (prediction: (r: number) => string, order: number[]) => Buffer.from(`id,prediction\n${order.map((r) => `${ids[r]},${prediction(r)}`).join("\n")}\n`);
  const inOrder = ids.map((_, r) => r);
  const shuffled = inOrder.map((r) => (r * 7919) % WARM_ROWS); // 7919 is prime and WARM_ROWS is not a multiple: a permutation
  const files = [
    { key: classKey, input: "class" as const, bytes: file((r) => (r % 3 ? "yes" : "no"), inOrder) },
    { key: classKey, input: "class" as const, bytes: file((r) => (r % 5 ? "no" : "yes"), shuffled) },
    { key: numberKey, input: "probability" as const, bytes: file((r) => ((r % 997) / 997).toFixed(4), inOrder) },
    { key: numberKey, input: "number" as const, bytes: file((r) => String(r % 101), shuffled) },
  ];
  for (let round = 0; round < WARM_ROUNDS; round++) {
    for (const f of files) {
      let parser: ReturnType<typeof createSubmissionParser> | undefined;
      try {
        const { file } = openUpload(uploadOf(f.bytes), { maxBytes: f.bytes.length, what: "a warm-up file", userId: NO_ONE.id });
        await readCsvUpload(file!, { what: "a warm-up file", parser: () => (parser = createSubmissionParser(f.key, f.input)), keep: true });
      } finally {
        parser?.release();
      }
    }
  }
}

/** A request whose body is `bytes` arriving as from a socket: in pieces of 64 KiB, so records straddle pieces. */
function uploadOf(bytes: Uint8Array): Request {
  async function* pieces() {
    for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
  }
  // Like Next.js's own requests, whose body is the Node request (an async iterable), which undici reads.
  return new Request("http://localhost/warm-up", { method: "POST", body: pieces() as unknown as BodyInit, duplex: "half" } as RequestInit);
}

/** How recent a competition's last submission must be for the warm-up to preload its solution. */
const RECENT_HOURS = 24;

/**
 * Decodes and indexes the solutions of the competitions taking submissions (published, or closed with
 * late submissions) that had one in the last RECENT_HOURS, the most recent first, for as long as they
 * fill at most half the solution cache (so that none pushes out one preloaded before it, and demand
 * has room): any account may publish competitions, and a competition nobody submits to costs an
 * instance nothing until someone does. For each, works out its splits' shapes, and scores its labels
 * as if they were a submission, so that its metric and sketch have run over that many rows; then runs
 * a submission's checks as an account in no team, which reads the competition and the member row as
 * a submission does and is refused there (403), before any file or write. The number done.
 */
async function preloadSolutions(): Promise<number> {
  const recent = await db.$queryRaw<{ id: string }[]>`
    SELECT competition_id AS id FROM (
      SELECT competition_id, last_submission_at AS at FROM teams WHERE last_submission_at > (now() AT TIME ZONE 'UTC') - make_interval(hours => ${RECENT_HOURS})
      UNION ALL
      SELECT competition_id, created_at FROM unranked_submissions WHERE kind = 'late' AND created_at > (now() AT TIME ZONE 'UTC') - make_interval(hours => ${RECENT_HOURS})
    ) used GROUP BY competition_id ORDER BY max(at) DESC`;
  const live = await db.competition.findMany({
    where: { id: { in: recent.map((r) => r.id) }, OR: [{ status: "published" }, { status: "closed", lateSubmissions: true }], solution: { isNot: null } },
    select: COMPETITION_SELECT,
  });
  const byId = new Map(live.map((c) => [c.id, c]));
  const room = (env().QUILTBOARD_SOLUTION_CACHE_MB * 1024 * 1024) / 2;
  let done = 0;
  for (const { id } of recent) {
    const competition = byId.get(id);
    if (!competition) continue;
    if (solutionCache.stats().bytes >= room) break;
    try {
      const { solution, holdoutRows, publicRows, sketchRows } = await scoringData(competition);
      await otherRequests();
      shapesOf(competition, solution);
      const metric = metricOf(competition);
      const labels = solution.labels;
      for (const rows of [holdoutRows, publicRows]) {
        await otherRequests();
        evaluateSplit(metric, { predictions: labels, labels, rows });
      }
      sketchOf(labels, sketchRows);
      await otherRequests();
      await submit(NO_ONE, competition.slug, null).catch((error) => {
        if (!(error instanceof AppError)) throw error; // refused, as expected
      });
      done++;
    } catch (error) {
      log.warn({ competition: competition.slug, err: (error as Error).message }, "preloading a competition's scoring failed");
    }
  }
  return done;
}
