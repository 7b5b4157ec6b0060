import { randomBytes } from "node:crypto";
import seedrandom from "seedrandom";
import { calibrateEpsDp } from "@/lib/calibration/models";
import { createStreams } from "@/lib/mechanism/rng";
import { initThresholdout, stepThresholdout, type ThresholdoutParams } from "@/lib/mechanism/thresholdout";
import { evaluateSplit, getMetric } from "@/lib/metrics/registry";

export type Figure = { name: string; value: number; unit: string; note?: string };

function time<T>(fn: () => T): { result: T; ms: number } {
  const start = process.hrtime.bigint();
  const result = fn();
  return { result, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** A random dense 64-state chain (each row a normalised draw of U(0,1)² + 0.01). */
function randomChain(states: number, seed: string): number[][] {
  const rng = seedrandom(seed);
  return Array.from({ length: states }, () => {
    const row = Array.from({ length: states }, () => rng() ** 2 + 0.01);
    const sum = row.reduce((a, b) => a + b, 0);
    return row.map((x) => x / sum);
  });
}

/** Issue 3's figures: calibration, one Thresholdout step, scoring throughput. */
export function benchMechanism(): Figure[] {
  const figures: Figure[] = [];

  const chain = randomChain(64, "bench");
  for (const eps of [0.01, 0.1, 1]) {
    const { result, ms } = time(() => calibrateEpsDp({ kind: "markov", transition: chain }, 1_000_000, eps));
    figures.push({ name: `calibrate markov |S|=64 n=1e6 eps=${eps}`, value: ms, unit: "ms", note: `epsDp=${result.value.toExponential(4)}` });
  }
  const sticky = [
    [0.95, 0.05],
    [0.05, 0.95],
  ];
  const { ms: stickyMs } = time(() => calibrateEpsDp({ kind: "markov", transition: sticky }, 1_000_000, 0.01));
  figures.push({ name: "calibrate markov sticky p=0.95 n=1e6 eps=0.01", value: stickyMs, unit: "ms" });

  const params: ThresholdoutParams = { sigma: 0.01, threshold: 0.04, budget: 1_000_000, sensitivity: 1 / 100_000, maxQueries: 1_000_000, answerDecimals: 4 };
  const streams = createStreams(randomBytes(32), "bench-team");
  let state = initThresholdout(params, streams);
  const steps = 50_000;
  const { ms: stepMs } = time(() => {
    for (let i = 0; i < steps; i++) {
      state = stepThresholdout(params, state, { holdoutValue: 0.5, publicValue: 0.5 + (i % 7) * 0.01 }, streams).state;
    }
  });
  figures.push({ name: "thresholdout step (HMAC streams included)", value: (stepMs * 1000) / steps, unit: "µs" });

  const n = 1_000_000;
  const rng = seedrandom("rows");
  const labels = Int32Array.from({ length: n }, () => Math.floor(rng() * 3));
  const predictions = Int32Array.from({ length: n }, () => Math.floor(rng() * 3));
  const rows = Uint32Array.from({ length: n }, (_, i) => i);
  const accuracy = getMetric("accuracy");
  const repeat = 20;
  evaluateSplit(accuracy, { labels, predictions, rows }); // warm-up
  const { ms: scoreMs } = time(() => {
    for (let r = 0; r < repeat; r++) evaluateSplit(accuracy, { labels, predictions, rows });
  });
  const { ms: baseMs } = time(() => {
    let s = 0;
    for (let r = 0; r < repeat; r++) for (let k = 0; k < n; k++) s += labels[rows[k]] === predictions[rows[k]] ? 1 : 0;
    return s;
  });
  const rate = (repeat * n) / (scoreMs / 1000);
  figures.push({
    name: "score accuracy 1e6 rows",
    value: rate / 1e6,
    unit: "M rows/s",
    note: `baseline inline loop ${((repeat * n) / (baseMs / 1000) / 1e6).toFixed(0)} M rows/s, ratio ${(baseMs / scoreMs).toFixed(2)}`,
  });
  return figures;
}
