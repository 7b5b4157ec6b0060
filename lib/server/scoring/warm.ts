import "server-only";
import { scoringData } from "./upload";
import { COMPETITION_SELECT } from "@/lib/server/competitions/competitions";
import { readCsvUpload } from "@/lib/server/platform/csv-upload";
import { db } from "@/lib/server/platform/db";
import { log } from "@/lib/server/platform/log";
import { SolutionIds } from "@/lib/csv/solution";
import { createSubmissionParser, submissionKey } from "@/lib/csv/submission";

/** Rows of each synthetic file, and how many times each is read: enough for V8 to optimise the reader's loops. */
const WARM_ROWS = 50_000;
const WARM_ROUNDS = 4;

let warming: Promise<void> | undefined;

/**
 * Makes this app instance's first submission cost what its later ones do (README, Performance):
 * V8 compiles the byte-level CSV reader and the submission parser to optimised code only after
 * they have run hot for a while, and a competition's solution is decoded and indexed on its first
 * submission. So, once per process, synthetic files are read through the very functions an upload
 * goes through (hash, gzip copy, reader, id and class look-ups, in the solution's order and out of
 * it, class and number predictions), and then the solutions of the competitions that take
 * submissions are decoded and indexed, one after the other. Started by the first GET /api/health,
 * which the app's process asks itself for as soon as it listens (scripts/http-preload.mjs): it has
 * to run in the route handlers' module instances, which Next.js keeps apart from instrumentation's.
 * Nothing it does is needed for correctness; a failure is logged and forgotten.
 */
export function warmScoring(): Promise<void> {
  warming ??= (async () => {
    const started = performance.now();
    await warmParsers();
    const parsed = performance.now();
    const preloaded = await preloadSolutions();
    log.info({ parsersMs: Math.round(parsed - started), solutions: preloaded, solutionsMs: Math.round(performance.now() - parsed) }, "scoring warmed up");
  })().catch((error: Error) => log.warn({ err: error.message }, "warming the scoring path failed"));
  return warming;
}

async function warmParsers(): Promise<void> {
  const ids = Array.from({ length: WARM_ROWS }, (_, r) => `warm-${r}`);
  const key = (classes: string[] | null) => submissionKey({ ids: SolutionIds.fromStrings(ids), classes });
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
        await readCsvUpload(new Response(f.bytes).body!, { what: "a warm-up file", parser: () => (parser = createSubmissionParser(f.key, f.input)), keep: true });
      } finally {
        parser?.release();
      }
    }
  }
}

/** Decodes and indexes the solution of every competition taking submissions (published, or closed with late submissions); the number done. */
async function preloadSolutions(): Promise<number> {
  const competitions = await db.competition.findMany({
    where: { OR: [{ status: "published" }, { status: "closed", lateSubmissions: true }], solution: { isNot: null } },
    select: COMPETITION_SELECT,
  });
  for (const competition of competitions) await scoringData(competition);
  return competitions.length;
}
