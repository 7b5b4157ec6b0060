// Load and fault runs against real app instances on one database (issue 8); used by
// `npm run bench -- load` / `-- faults` and, smaller, by the end-to-end tests.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { startApp, type RunningApp } from "./app";
import { newCompetitor, type Organizer, publishOverApi, syntheticPredictions, syntheticSolution } from "../test/support/api";

/** Publishes a competition on a synthetic solution of `rows` rows; returns its slug and organizer. */
async function publishSynthetic(base: string, rows: number, budget = 10): Promise<{ slug: string; organizer: Organizer }> {
  // A tight threshold, so a good share of answers come from the holdout and spend budget.
  return publishOverApi(base, {
    settings: { dailySubmissionLimit: 1000 },
    solution: syntheticSolution(rows),
    mechanism: { mode: "practical", sigma: 0.001, threshold: 0.003, budget },
  });
}

/** POSTs predictions with an Idempotency-Key; the status and body, or the network error. */
async function post(base: string, slug: string, token: string, csv: string, key: string) {
  try {
    const response = await fetch(`${base}/api/v1/competitions/${slug}/submissions`, {
      method: "POST",
      headers: { authorization: token, "content-type": "text/csv", "idempotency-key": key },
      body: csv,
    });
    return { status: response.status, body: await response.json() };
  } catch (error) {
    return { status: 0, body: { error: { message: (error as Error).message } } };
  }
}

export type Invariants = { submissions: number; answersPerKey: number; budgetMismatches: number; indexProblems: number; auditQueries: number; auditMismatches: number };

/**
 * docs/mechanism.md §5's invariants, read from the database and the audit endpoint: every query answered once
 * (one row per idempotency key), each team's budget equals its initial budget minus its holdout
 * answers, query indices run 1…k per team with none reused, and replaying every answer from the
 * secret gives 0 mismatches.
 */
export async function checkInvariants(databaseUrl: string, slug: string, organizer: Organizer): Promise<Invariants> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const q = async (sql: string) => Number((await db.query(sql, [slug])).rows[0].n);
    const scope = "competition_id = (SELECT id FROM competitions WHERE slug = $1)";
    const submissions = await q(`SELECT count(*) AS n FROM submissions WHERE ${scope}`);
    const answersPerKey = await q(
      `SELECT coalesce(max(c), 0) AS n FROM (SELECT count(*) AS c FROM submissions WHERE ${scope} AND idempotency_key IS NOT NULL GROUP BY team_id, idempotency_key) k`,
    );
    const budgetMismatches = await q(
      `SELECT count(*) AS n FROM teams t WHERE ${scope.replace("competition_id", "t.competition_id")} AND t.merged_into_id IS NULL
       AND t.initial_budget - t.budget_remaining <> (SELECT count(*) FROM submissions s WHERE s.team_id = t.id AND s.kind = 'holdout')`,
    );
    const indexProblems = await q(
      `SELECT count(*) AS n FROM (SELECT stream_team_id FROM submissions WHERE ${scope} GROUP BY stream_team_id HAVING max(query_index) <> count(*) OR count(DISTINCT query_index) <> count(*)) p`,
    );
    const audit = await organizer.call(`/api/v1/competitions/${slug}/audit`);
    return { submissions, answersPerKey, budgetMismatches, indexProblems, auditQueries: audit.queries, auditMismatches: audit.mismatches };
  } finally {
    await db.end();
  }
}

export type LoadReport = { accepted: number; failed: number; seconds: number; throughput: number; p50: number; p99: number; invariants: Invariants };

/**
 * `teams` teams each send `perTeam` submissions, at most `inFlight` at once, spread over the app
 * instances round-robin; then the invariants are checked.
 */
export async function runLoad(options: { urls: string[]; databaseUrl: string; teams: number; perTeam: number; inFlight: number; rows: number }): Promise<LoadReport> {
  const [base] = options.urls;
  const { slug, organizer } = await publishSynthetic(base, options.rows);
  const players: string[] = [];
  for (let t = 0; t < options.teams; t += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, options.teams - t) }, async (_, i) => {
        const player = await newCompetitor(base, slug, `Load team ${t + i}`);
        return player.auth.authorization;
      }),
    );
    players.push(...batch);
  }
  const jobs = players.flatMap((token, t) => Array.from({ length: options.perTeam }, (_, k) => ({ token, csv: syntheticPredictions(options.rows, t * 1000 + k + 1) })));
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.inFlight }, async (_, worker) => {
      for (let j = next++; j < jobs.length; j = next++) {
        const t0 = performance.now();
        const r = await post(options.urls[(worker + j) % options.urls.length], slug, jobs[j].token, jobs[j].csv, randomUUID());
        latencies.push(performance.now() - t0);
        if (r.status !== 201) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  return {
    accepted: jobs.length - failed,
    failed,
    seconds,
    throughput: jobs.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    invariants: await checkInvariants(options.databaseUrl, slug, organizer),
  };
}

export type FaultReport = {
  rounds: number;
  killedMidRequest: number;
  outcomes: Record<string, number>;
  outage: { during: number[]; messages: string[]; recoveredAfterMs: number } | null;
  invariants: Invariants;
};

/**
 * Faults: `rounds` times, a submission goes to a second app instance that is killed with SIGKILL
 * while it scores, then restarted; the client retries with the same Idempotency-Key on the first
 * instance, as a real client would. Then (embedded database only) PostgreSQL is stopped for a few
 * seconds while requests arrive (each must get a 503 that says what happened), and started again.
 * Afterwards nothing accepted may be lost and nothing charged twice.
 */
export async function runFaults(options: {
  apps: RunningApp[];
  env: Record<string, string>;
  databaseUrl: string;
  database: { pause?: () => Promise<void>; resume?: () => Promise<void> };
  rounds: number;
  rows: number;
}): Promise<FaultReport> {
  const [stable] = options.apps;
  let victim = options.apps[1];
  const { slug, organizer } = await publishSynthetic(stable.url, options.rows, 1000);
  const player = await newCompetitor(stable.url, slug, "Fault tolerant");
  const token = player.auth.authorization;
  const outcomes: Record<string, number> = {};
  let killedMidRequest = 0;
  for (let round = 0; round < options.rounds; round++) {
    const key = randomUUID();
    const csv = syntheticPredictions(options.rows, round + 1);
    const inFlight = post(victim.url, slug, token, csv, key);
    // From just after sending to after the answer: some rounds die mid-scoring, some after the commit.
    await new Promise((r) => setTimeout(r, 20 + ((round * 173) % 1200)));
    const wasRunning = victim.child.exitCode === null;
    victim.child.kill("SIGKILL");
    const first = await inFlight;
    if (wasRunning && first.status === 0) killedMidRequest++;
    const port = Number(new URL(victim.url).port);
    victim = await startApp({ port, env: options.env, quiet: true });
    const retry = await post(stable.url, slug, token, csv, key);
    const outcome = `${first.status === 0 ? "killed" : first.status}→${retry.status}`;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  options.apps[1] = victim;

  let outage: FaultReport["outage"] = null;
  if (options.database.pause && options.database.resume) {
    await options.database.pause();
    const during = await Promise.all([
      fetch(`${stable.url}/api/v1/competitions/${slug}/leaderboard`).then(async (r) => ({ status: r.status, body: await r.json() })),
      post(stable.url, slug, token, syntheticPredictions(options.rows, 999), randomUUID()),
    ]);
    const resumed = performance.now();
    await options.database.resume();
    let recoveredAfterMs = -1;
    for (let i = 0; i < 100; i++) {
      const r = await post(stable.url, slug, token, syntheticPredictions(options.rows, 1000 + i), randomUUID());
      if (r.status === 201) {
        recoveredAfterMs = performance.now() - resumed;
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    outage = { during: during.map((d) => d.status), messages: during.map((d) => d.body.error?.message ?? ""), recoveredAfterMs };
  }
  return { rounds: options.rounds, killedMidRequest, outcomes, outage, invariants: await checkInvariants(options.databaseUrl, slug, organizer) };
}
