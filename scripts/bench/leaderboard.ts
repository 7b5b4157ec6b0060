import pg from "pg";
import type { Figure } from "./mechanism";
import { startHarness } from "../harness";
import { publishOverApi, syntheticSolution } from "../../test/support/api";

const TEAMS = 10_000;
const SUBMISSIONS = 1_000_000;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeRequests(url: string, count: number): Promise<{ p50: number; p95: number; bytes: number }> {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count + 5; i++) {
    const start = performance.now();
    const response = await fetch(url);
    const text = await response.text();
    if (!response.ok) throw new Error(`${url} → ${response.status}`);
    if (i >= 5) samples.push(performance.now() - start); // the first five warm up
    bytes = text.length;
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), bytes };
}

/**
 * Issue 6's figures: the leaderboard API and page with 10,000 teams and 1,000,000 submissions in
 * the database (inserted in bulk, the volume README, Performance asks one machine to serve), p50/p95 over 200
 * sequential requests each, and the query plan showing that only the teams table is read.
 */
export async function benchLeaderboard(): Promise<Figure[]> {
  const server = await startHarness();
  const [base] = server.urls;
  const figures: Figure[] = [];
  try {
    const { slug } = await publishOverApi(base, {
      settings: { slug: "bench-board" },
      solution: syntheticSolution(1000),
      mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 20 },
    });

    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    const seeded = performance.now();
    const {
      rows: [c],
    } = await db.query("SELECT id FROM competitions WHERE slug = $1", [slug]);
    const {
      rows: [u],
    } = await db.query("SELECT id FROM users LIMIT 1");
    await db.query(
      `INSERT INTO teams (id, competition_id, name, invite_code, initial_budget, budget_remaining, query_count, best_score, best_at, submission_count, last_submission_at, created_at)
       SELECT gen_random_uuid(), $1, 'Team ' || i, md5(i::text || random()::text), 20, (i % 21), $3 / $2, random(), now() - (i || ' seconds')::interval, $3 / $2, now() - (i || ' seconds')::interval, now() - interval '1 day'
       FROM generate_series(1, $2::int) AS i`,
      [c.id, TEAMS, SUBMISSIONS],
    );
    await db.query(
      `INSERT INTO submissions (id, competition_id, team_id, user_id, created_at, file_sha256, stream_team_id, query_index, kind, answer, budget_before, budget_after, public_score, holdout_score)
       SELECT gen_random_uuid(), $1, t.id, $2, now() - (q || ' minutes')::interval, md5(q::text), t.id, q, 'public', random(), 20, 20, random(), random()
       FROM teams t CROSS JOIN generate_series(1, $3::int) AS q WHERE t.competition_id = $1`,
      [c.id, u.id, SUBMISSIONS / TEAMS],
    );
    await db.query("ANALYZE teams; ANALYZE submissions");
    const counts = await db.query("SELECT (SELECT count(*) FROM teams) AS teams, (SELECT count(*) FROM submissions) AS submissions");
    figures.push({
      name: "seeded teams / submissions",
      value: Number(counts.rows[0].submissions),
      unit: "submissions",
      note: `${counts.rows[0].teams} teams, ${((performance.now() - seeded) / 1000).toFixed(0)} s to insert`,
    });

    const plan = await db.query(
      `EXPLAIN SELECT *, count(*) OVER () AS total FROM (SELECT id, name, best_score, submission_count, budget_remaining, initial_budget, last_submission_at,
         row_number() OVER (ORDER BY best_score DESC NULLS LAST, best_at ASC NULLS LAST, created_at ASC, id ASC) AS rank
         FROM teams WHERE competition_id = $1 AND merged_into_id IS NULL AND submission_count > 0) ranked WHERE TRUE ORDER BY rank LIMIT 50 OFFSET 0`,
      [c.id],
    );
    const planText = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
    await db.end();
    figures.push({ name: "leaderboard query reads submissions", value: /submissions/.test(planText) ? 1 : 0, unit: "(0 = no)", note: "EXPLAIN of the live ranking" });

    const api = `${base}/api/v1/competitions/${slug}/leaderboard`;
    for (const [name, url] of [
      ["leaderboard API, page of 50", `${api}?page=1&pageSize=50`],
      ["leaderboard API, page 150 of 200", `${api}?page=150&pageSize=50`],
      ["leaderboard API, search", `${api}?q=Team%20123&pageSize=50`],
      ["leaderboard API, all 10,000 entries", api],
      ["leaderboard CSV export, all entries", `${api}?format=csv`],
      ["leaderboard page (HTML)", `${base}/competitions/${slug}/leaderboard`],
    ] as const) {
      const t = await timeRequests(url, 200);
      figures.push({ name: `${name} p95`, value: t.p95, unit: "ms", note: `p50 ${t.p50.toFixed(1)} ms, ${(t.bytes / 1024).toFixed(0)} KiB` });
    }
  } finally {
    await server.stop();
  }
  return figures;
}
