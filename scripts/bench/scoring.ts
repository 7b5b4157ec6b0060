import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createServer } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { compressFrame, FRAME_BYTES } from "@/lib/server/platform/csv-upload";
import { localStore } from "@/lib/server/platform/files";
import type { Figure } from "./mechanism";
import { percentile } from "./stats";
import { startHarness } from "../harness";
import { newApiUser, newCompetitor, publishOverApi, syntheticPredictions, syntheticSolution } from "../support/rest-client";

/** Sends `body` to a bare Node server that only reads it: the transfer cost, the baseline (best of 3). */
export async function readOnlyBaseline(body: string): Promise<number> {
  const server = createServer((req, res) => {
    req.on("data", () => {});
    req.on("end", () => res.end("{}"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    await (await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body })).text();
    runs.push(performance.now() - start);
  }
  server.close();
  return Math.min(...runs);
}

/**
 * The CPU time (user and system, all threads) process `pid` has used so far, in ms, from Linux's
 * /proc (clock ticks of 10 ms); null where there is no /proc. A submission's cost to the app, which
 * other work on a shared machine stretches in wall time but not in CPU time.
 */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * The kept copy of a submission, made as the app makes it (compressFrame: zstd level 1, a frame per
 * MiB on libuv's pool), beside gzip level 1 on the same pieces, the format kept before Node 24: the
 * process's CPU time (its pool threads included) for the whole file, the median of 7 runs of each in
 * alternation, and the sizes.
 */
async function keptCopy(body: Buffer): Promise<Figure> {
  const pieces = Array.from({ length: Math.ceil(body.length / FRAME_BYTES) }, (_, i) => body.subarray(i * FRAME_BYTES, (i + 1) * FRAME_BYTES));
  const gzipAsync = promisify(gzip);
  const codecs = { zstd: compressFrame, gzip: (piece: Buffer) => gzipAsync(piece, { level: 1 }) };
  const cpu = { zstd: [] as number[], gzip: [] as number[] };
  const bytes = { zstd: 0, gzip: 0 };
  for (let run = 0; run < 7; run++) {
    for (const name of ["zstd", "gzip"] as const) {
      const start = process.cpuUsage();
      let size = 0;
      for (const piece of pieces) size += (await codecs[name](piece)).length;
      const used = process.cpuUsage(start);
      cpu[name].push((used.user + used.system) / 1000);
      bytes[name] = size;
    }
  }
  const [zstd, gzipped] = [percentile(cpu.zstd, 50), percentile(cpu.gzip, 50)];
  return {
    name: "kept copy of 1e6 rows (zstd level 1), CPU",
    value: zstd,
    unit: "ms",
    note: `median of 7; ${(bytes.zstd / 1e6).toFixed(2)} MB of ${(body.length / 1e6).toFixed(1)}; gzip level 1 on the same pieces ${gzipped.toFixed(0)} ms for ${(bytes.gzip / 1e6).toFixed(2)} MB: ${(gzipped / zstd).toFixed(1)}× the CPU, ${(bytes.gzip / bytes.zstd).toFixed(1)}× the size`,
  };
}

/**
 * What keeping a submission's copy adds to its answer (scoring/files.ts keepSubmissionFile): the
 * write of the zstd and of the gzip copy of the same file to a local store (written whole, flushed
 * to disk, renamed), the median of 7 in alternation, beside a plain write of the same bytes.
 */
async function keptWrite(body: Buffer): Promise<Figure> {
  const pieces = Array.from({ length: Math.ceil(body.length / FRAME_BYTES) }, (_, i) => body.subarray(i * FRAME_BYTES, (i + 1) * FRAME_BYTES));
  const gzipAsync = promisify(gzip);
  const copies = {
    zstd: Buffer.concat(await Promise.all(pieces.map(compressFrame))),
    gzip: Buffer.concat(await Promise.all(pieces.map((p) => gzipAsync(p, { level: 1 })))),
  };
  const root = mkdtempSync(path.join(tmpdir(), "quiltboard-bench-store-"));
  const store = localStore(root);
  const times = { zstd: [] as number[], gzip: [] as number[] };
  try {
    for (let run = 0; run < 7; run++) {
      for (const name of ["zstd", "gzip"] as const) {
        const start = performance.now();
        await store.put(`submissions/bench/${name}-${run}`, Readable.from([copies[name]]));
        times[name].push(performance.now() - start);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const [zstd, gzipped] = [percentile(times.zstd, 50), percentile(times.gzip, 50)];
  return {
    name: "kept copy of 1e6 rows written to a local store",
    value: zstd,
    unit: "ms",
    note: `median of 7; ${(copies.zstd.length / 1e6).toFixed(2)} MB, flushed and renamed; the gzip copy (${(copies.gzip.length / 1e6).toFixed(2)} MB) ${gzipped.toFixed(1)} ms`,
  };
}

/**
 * Issue 5's, 26's and 41's figures: the kept copy's cost and its write to the store, then over HTTP one 10⁶-row submission end to end on a fresh app (its
 * process has read no submission yet; the best of three fresh processes), and warm (the best of the
 * next four), beside a server that only reads the body; and 100 concurrent 10⁴-row submissions from
 * 50 teams (all answered, none lost or duplicated).
 */
export async function benchScoring(): Promise<Figure[]> {
  const file = Buffer.from(syntheticPredictions(1_000_000, 1));
  const figures: Figure[] = [await keptCopy(file), await keptWrite(file)];
  const server = await startHarness();
  const base = server.urls[0];
  try {
    const organizer = await newApiUser(base, "organizer");
    const publish = (slug: string, n: number, daily: number) =>
      publishOverApi(base, {
        organizer,
        settings: { slug, dailySubmissionLimit: daily },
        solution: syntheticSolution(n),
        mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 10 },
      });

    // One 10⁶-row submission, first on a fresh process (up for 3 s), on three fresh processes; then
    // four more on the last, warm.
    const big = 1_000_000;
    await publish("bench-big", big, 100);
    const player = (await newCompetitor(base, "bench-big", "Big")).call;
    let seed = 0;
    let bytes = 0;
    const send = async () => {
      const body = syntheticPredictions(big, ++seed);
      bytes = body.length;
      const start = performance.now();
      await player("/api/v1/competitions/bench-big/submissions", { csv: body });
      return performance.now() - start;
    };
    const firsts: number[] = [];
    for (let fresh = 0; fresh < 3; fresh++) {
      await server.restart();
      await new Promise((r) => setTimeout(r, 3000));
      firsts.push(await send());
    }
    const warms: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < 4; i++) {
      const cpu = cpuMs(server.apps[0].child.pid);
      warms.push(await send());
      const used = cpuMs(server.apps[0].child.pid);
      if (cpu !== null && used !== null) cpus.push(used - cpu);
    }
    const baseline = await readOnlyBaseline(syntheticPredictions(big, 1));
    const list = (runs: number[]) => runs.map((r) => r.toFixed(0)).join(", ");
    const first = Math.min(...firsts);
    const warm = Math.min(...warms);
    figures.push({
      name: "submission of 1e6 rows, first on a fresh app",
      value: first,
      unit: "ms",
      note: `best of 3 fresh apps (${list(firsts)} ms); ${(bytes / 1e6).toFixed(1)} MB; read-only baseline ${baseline.toFixed(0)} ms (best of 3), ratio ${(first / baseline).toFixed(1)}, median ${(percentile(firsts, 50) / baseline).toFixed(1)}`,
    });
    figures.push({
      name: "submission of 1e6 rows, warm",
      value: warm,
      unit: "ms",
      note: `best of the next 4 (${list(warms)} ms); ratio ${(warm / baseline).toFixed(1)}, median ${(percentile(warms, 50) / baseline).toFixed(1)}`,
    });
    if (cpus.length)
      figures.push({
        name: "submission of 1e6 rows, warm: the app's CPU time",
        value: Math.min(...cpus),
        unit: "ms",
        note: `least of the same 4 (${list(cpus)} ms), all its threads`,
      });

    // 100 concurrent 10⁴-row submissions from 50 teams.
    const small = 10_000;
    await publish("bench-crowd", small, 10);
    const teams = await Promise.all(
      Array.from({ length: 50 }, async (_, t) => {
        return (await newCompetitor(base, "bench-crowd", `Team ${t}`)).call;
      }),
    );
    const start = performance.now();
    const answers = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => teams[i % 50]("/api/v1/competitions/bench-crowd/submissions", { csv: syntheticPredictions(small, i + 10) })),
    );
    const ms = performance.now() - start;
    const ok = answers.filter((a) => a.status === "fulfilled") as PromiseFulfilledResult<{ id: string }>[];
    const ids = new Set(ok.map((a) => a.value.id));
    const stored = await organizer.call("/api/v1/competitions/bench-crowd/audit");
    figures.push({
      name: "100 concurrent 1e4-row submissions, 50 teams",
      value: ms,
      unit: "ms",
      note: `${ok.length} answered, ${ids.size} distinct, ${stored.queries} stored, ${stored.mismatches} audit mismatches, ${(100 / (ms / 1000)).toFixed(0)} submissions/s`,
    });
  } finally {
    await server.stop();
  }
  return figures;
}
