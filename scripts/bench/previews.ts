import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CsvProfiler, profiling } from "@/lib/csv/profile";
import { localStore } from "@/lib/server/platform/files";
import type { Figure } from "./mechanism";
import { percentile } from "./stats";

// The cost of a data file's preview (lib/csv/profile.ts) to its upload: the same 200 MB CSV streamed
// into the local file store in 64 KiB chunks (as a request body arrives), plainly and through the
// profiler, alternately, 5 times each in this one process; the medians of their wall and CPU times
// (the CPU time is what a shared machine's other work does not stretch), and their ratio.

const MB = 1e6;
const CHUNK = 64 * 1024;

/** About `bytes` of a Kaggle-like training table: an id, numbers, a category, a date, a short text, some values missing. */
function syntheticCsv(bytes: number): Buffer {
  const lines = ["id,age,income,score,category,signup_date,comment"];
  let size = lines[0].length + 1;
  for (let i = 0; size < bytes; i++) {
    const line = `${i},${18 + (i % 60)},${i % 13 ? ((i * 7919) % 100_000) + 0.25 : ""},${((i * 2654435761) % 1000) / 1000},${["a", "b", "c", "d"][i % 4]},2024-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")},"note ${i % 5000}, kept"`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join("\n") + "\n");
}

function chunks(bytes: Buffer): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset + at, Math.min(CHUNK, bytes.length - at)));
      at += CHUNK;
    },
  });
}

export async function benchPreviews(): Promise<Figure[]> {
  const csv = syntheticCsv(200 * MB);
  const root = mkdtempSync(path.join(tmpdir(), "quiltboard-bench-previews-"));
  const store = localStore(root);
  const plain: number[] = [];
  const profiled: number[] = [];
  const plainCpu: number[] = [];
  const profiledCpu: number[] = [];
  /** The wall and CPU time (this process, every thread: the store's writes too) of `run`, in ms. */
  const timed = async (run: () => Promise<void>, wall: number[], cpu: number[]) => {
    const [start, used] = [performance.now(), process.cpuUsage()];
    await run();
    const spent = process.cpuUsage(used);
    wall.push(performance.now() - start);
    cpu.push((spent.user + spent.system) / 1000);
  };
  try {
    for (let run = 0; run < 5; run++) {
      await timed(() => store.put("bench/plain", chunks(csv)).then(() => {}), plain, plainCpu);
      await timed(
        async () => {
          const profiler = new CsvProfiler();
          await store.put("bench/profiled", chunks(csv).pipeThrough(profiling(profiler)));
          const preview = profiler.finish();
          if (preview.kind !== "csv" || preview.rows < 1) throw new Error(`the synthetic CSV got no preview: ${JSON.stringify(preview)}`);
        },
        profiled,
        profiledCpu,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const [p, q] = [percentile(plain, 50), percentile(profiled, 50)];
  const [pc, qc] = [percentile(plainCpu, 50), percentile(profiledCpu, 50)];
  const mb = csv.byteLength / MB;
  return [
    { name: "previews: 200 MB CSV into the store, plain", value: p, unit: "ms", note: `${(mb / (p / 1000)).toFixed(0)} MB/s, median of 5; CPU ${pc.toFixed(0)} ms` },
    { name: "previews: the same, profiled on the way", value: q, unit: "ms", note: `${(mb / (q / 1000)).toFixed(0)} MB/s, median of 5; CPU ${qc.toFixed(0)} ms` },
    { name: "previews: profiled / plain (wall)", value: q / p, unit: "×" },
    { name: "previews: the profile's CPU per MB", value: (qc - pc) / mb, unit: "ms/MB", note: `${(mb / ((qc - pc) / 1000)).toFixed(0)} MB/s of one core` },
  ];
}
