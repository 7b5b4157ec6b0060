import { startHarness } from "../harness";
import { runFaults, runLoad } from "../reliability";
import type { Figure } from "./mechanism";

/** Issue 8's load figures: two app instances, 1,000 submissions from 100 teams, 50 in flight (after 100 untimed). */
export async function benchLoad(): Promise<Figure[]> {
  const harness = await startHarness(2);
  try {
    const r = await runLoad({ urls: harness.urls, databaseUrl: harness.databaseUrl, teams: 100, perTeam: 10, inFlight: 50, rows: 10_000, warmup: 100 });
    const inv = r.invariants;
    return [
      { name: "load: submissions accepted (1e4 rows each)", value: r.accepted, unit: "of 1000", note: `${r.failed} failed` },
      { name: "load: throughput over 2 instances", value: r.throughput, unit: "submissions/s", note: `${r.seconds.toFixed(1)} s in all` },
      { name: "load: latency p50", value: r.p50, unit: "ms" },
      { name: "load: latency p99", value: r.p99, unit: "ms" },
      { name: "load: warm-up before the timed run (untimed)", value: r.warmup.submissions, unit: "submissions", note: `latency p99 ${Math.round(r.warmup.p99)} ms` },
      {
        name: "load: invariant violations",
        value: inv.budgetMismatches + inv.indexProblems + inv.auditMismatches + (inv.answersPerKey > 1 ? 1 : 0),
        unit: "",
        note: `${inv.submissions} stored, ${inv.auditQueries} replayed, ${inv.auditMismatches} audit mismatches, ${inv.budgetMismatches} budget mismatches, ${inv.indexProblems} index problems`,
      },
    ];
  } finally {
    await harness.stop();
  }
}

/** Kill -9 while scoring, 20 times; then stop the database under requests. */
export async function benchFaults(): Promise<Figure[]> {
  const harness = await startHarness(2, false, { embedded: true });
  try {
    const r = await runFaults({ apps: harness.apps, env: harness.env, databaseUrl: harness.databaseUrl, database: harness.database, rounds: 20, rows: 200_000 });
    const inv = r.invariants;
    return [
      {
        name: "faults: kill -9 rounds (killed mid-request)",
        value: r.rounds,
        unit: "rounds",
        note: `${r.killedMidRequest} killed mid-request; outcomes ${JSON.stringify(r.outcomes)}`,
      },
      {
        name: "faults: submissions stored after all retries",
        value: inv.submissions,
        unit: `of ${r.rounds + (r.outage && r.outage.recoveredAfterMs >= 0 ? 1 : 0)} accepted`,
        note: `max answers per key ${inv.answersPerKey}; the outage's refused submission stored nothing`,
      },
      {
        name: "faults: database outage answers",
        value: r.outage ? r.outage.during.filter((s) => s === 503).length : 0,
        unit: "× 503",
        note: r.outage ? `statuses ${r.outage.during.join(", ")}; "${r.outage.messages[0]}"` : "needs the embedded database",
      },
      { name: "faults: recovery after the database returns", value: r.outage?.recoveredAfterMs ?? -1, unit: "ms" },
      {
        name: "faults: invariant violations",
        value: inv.budgetMismatches + inv.indexProblems + inv.auditMismatches + (inv.answersPerKey > 1 ? 1 : 0),
        unit: "",
        note: `${inv.auditQueries} replayed, ${inv.auditMismatches} audit mismatches`,
      },
    ];
  } finally {
    await harness.stop();
  }
}
