// Load and fault runs against real app instances on one database (issue 8); used by
// `npm run bench -- load` / `-- faults` and, smaller, by the end-to-end tests.
import { randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { startApp, type RunningApp } from "./app";
import { newApiUser, newCompetitor, type Organizer, publishOverApi, syntheticPredictions, syntheticSolution } from "./support/rest-client";

/** Publishes a competition on a synthetic solution of `rows` rows; returns its slug and organizer. */
async function publishSynthetic(base: string, rows: number, budget = 10): Promise<{ slug: string; organizer: Organizer }> {
  // A tight threshold, so a good share of answers come from the holdout and spend budget.
  return publishOverApi(base, {
    settings: { dailySubmissionLimit: 1000, maxTeamSize: 100 },
    solution: syntheticSolution(rows),
    mechanism: { mode: "practical", sigma: 0.001, threshold: 0.003, budget },
  });
}

// node:http with kept-alive connections rather than fetch: under load, fetch cost the load generator
// ~3 ms of CPU per request on the machine it shares with the instances it measures.
const agent = new http.Agent({ keepAlive: true });

/** POSTs predictions with an Idempotency-Key; the status and body, or the network error. */
function post(base: string, slug: string, token: string, csv: string | Buffer, key: string): Promise<{ status: number; body: { error?: { message: string } } }> {
  const body = typeof csv === "string" ? Buffer.from(csv) : csv;
  const failed = (error: Error) => ({ status: 0, body: { error: { message: error.message } } });
  return new Promise((resolve) => {
    const request = http.request(
      `${base}/api/v1/competitions/${slug}/submissions`,
      { method: "POST", agent, headers: { authorization: token, "content-type": "text/csv", "content-length": body.length, "idempotency-key": key } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (c: Buffer) => chunks.push(c));
        response.on("error", (error) => resolve(failed(error)));
        response.on("end", () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) });
          } catch (error) {
            resolve(failed(error as Error));
          }
        });
      },
    );
    request.on("error", (error) => resolve(failed(error)));
    request.end(body);
  });
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

export type LoadReport = {
  accepted: number;
  failed: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
  /** the untimed warm-up: its submissions and their latency p99 (ms) */
  warmup: { submissions: number; p99: number };
  invariants: Invariants;
};

type Job = { token: string; csv: Buffer };

/**
 * Sends `jobs` in order, at most `inFlight` at once, each to the instance with the fewest requests
 * in progress (the first such after the last one chosen): Caddy's `lb_policy least_conn`, as
 * compose.scale.yml deploys it. The latencies (ms, sorted) and the number not answered 201.
 */
async function drive(urls: string[], slug: string, jobs: Job[], inFlight: number): Promise<{ latencies: number[]; failed: number }> {
  const inProgress = urls.map(() => 0);
  let last = -1;
  const pick = () => {
    let best = -1;
    for (let k = 1; k <= urls.length; k++) {
      const i = (last + k) % urls.length;
      if (best < 0 || inProgress[i] < inProgress[best]) best = i;
    }
    return (last = best);
  };
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let j = next++; j < jobs.length; j = next++) {
        const instance = pick();
        inProgress[instance]++;
        const t0 = performance.now();
        const r = await post(urls[instance], slug, jobs[j].token, jobs[j].csv, randomUUID());
        latencies.push(performance.now() - t0);
        inProgress[instance]--;
        if (r.status !== 201) failed++;
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), failed };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * Uploads of one account a well-behaved client has in flight at once: the server reads at most two
 * of an account's at a time, over every instance, and refuses a third with 429 (docs/api.md,
 * Uploads and downloads). A team that sends more at once does it from several members' accounts.
 */
const UPLOADS_PER_ACCOUNT = 2;

/**
 * `teams` new teams in the competition, named `${name} 0`, `${name} 1`, …, each of `members`
 * accounts (its creator and the others, who joined with its invite code): their tokens, by team,
 * signed up 10 at a time.
 */
async function newTeams(base: string, slug: string, teams: number, name: string, members: number): Promise<string[][]> {
  const tokens: string[][] = [];
  const team = async (i: number) => {
    const captain = await newCompetitor(base, slug, `${name} ${i}`);
    const others = [];
    for (let m = 1; m < members; m++) {
      const member = await newApiUser(base, "member");
      await member.call(`/api/v1/competitions/${slug}/teams/join`, { json: { inviteCode: captain.team.inviteCode } });
      others.push(member.auth.authorization);
    }
    return [captain.auth.authorization, ...others];
  };
  for (let t = 0; t < teams; t += 10) tokens.push(...(await Promise.all(Array.from({ length: Math.min(10, teams - t) }, (_, i) => team(t + i)))));
  return tokens;
}

/**
 * `teams` teams each send `perTeam` submissions, at most `inFlight` at once; a team's submissions
 * are queued together, so they are in flight together and take turns on the team's lock (sent by its
 * members in turn, at most UPLOADS_PER_ACCOUNT per account). Then the
 * invariants are checked. With `warmup`, that many submissions from other teams go first, untimed:
 * a fresh instance compiles its hot code and opens its database connections on its first requests.
 */
export async function runLoad(options: {
  urls: string[];
  databaseUrl: string;
  teams: number;
  perTeam: number;
  inFlight: number;
  rows: number;
  warmup?: number;
}): Promise<LoadReport> {
  const [base] = options.urls;
  const { slug, organizer } = await publishSynthetic(base, options.rows);
  const warmup = options.warmup ?? 0;
  const members = Math.ceil(options.perTeam / UPLOADS_PER_ACCOUNT);
  const warmers = await newTeams(base, slug, Math.ceil(warmup / options.perTeam), "Warm-up team", members);
  const players = await newTeams(base, slug, options.teams, "Load team", members);
  // A team's submissions take turns among its members, so no account has more than two in flight.
  const jobsOf = (tokens: string[][], count: number, seed: number): Job[] =>
    Array.from({ length: count }, (_, j) => ({ token: tokens[Math.floor(j / options.perTeam)][j % members], csv: Buffer.from(syntheticPredictions(options.rows, seed + j)) }));
  const warm = await drive(options.urls, slug, jobsOf(warmers, warmup, 1_000_000), options.inFlight);
  const jobs = jobsOf(players, options.teams * options.perTeam, 1);
  const started = performance.now();
  const { latencies, failed } = await drive(options.urls, slug, jobs, options.inFlight);
  const seconds = (performance.now() - started) / 1000;
  return {
    accepted: jobs.length - failed,
    failed,
    seconds,
    throughput: jobs.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    warmup: { submissions: warmup - warm.failed, p99: warmup ? percentile(warm.latencies, 0.99) : 0 },
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
