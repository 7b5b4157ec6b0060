// A live board at scale, inserted in bulk (the leaderboard bench, the hostile bench and their e2e
// tests): a competition published through the API gets `teams` teams with `submissions` submissions
// between them, straight into its database.
import pg from "pg";

/**
 * Inserts `teams` teams on the board of the competition `slug` (random shown scores, each a public
 * answer, the team's latest, after no holdout answer: "Team 1" to "Team N") and `submissions` submissions spread over them, then analyzes the
 * tables. Returns the competition's id.
 */
export async function seedBoard(databaseUrl: string, slug: string, teams: number, submissions = teams): Promise<string> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const {
      rows: [c],
    } = await db.query("SELECT id FROM competitions WHERE slug = $1", [slug]);
    const {
      rows: [u],
    } = await db.query("SELECT id FROM users LIMIT 1");
    await db.query(
      `INSERT INTO teams (id, competition_id, name, invite_code, initial_budget, budget_remaining, query_count, best_value, best_kind, best_at, best_position, best_prior, submission_count, last_submission_at, created_at)
       SELECT gen_random_uuid(), $1, 'Team ' || i, md5(i::text || random()::text), 20, (i % 21), $3 / $2, random(), 'public', now() - (i || ' seconds')::interval, $3 / $2, 0, $3 / $2, now() - (i || ' seconds')::interval, now() - interval '1 day'
       FROM generate_series(1, $2::int) AS i`,
      [c.id, teams, submissions],
    );
    await db.query(
      `INSERT INTO submissions (id, competition_id, team_id, user_id, created_at, file_sha256, stream_team_id, query_index, position, kind, answer, budget_before, budget_after, public_value, holdout_value)
       SELECT gen_random_uuid(), $1, t.id, $2, now() - (q || ' minutes')::interval, md5(q::text), t.id, q, q, 'public', random(), 20, 20, random(), random()
       FROM teams t CROSS JOIN generate_series(1, $3::int) AS q WHERE t.competition_id = $1`,
      [c.id, u.id, submissions / teams],
    );
    await db.query("VACUUM ANALYZE teams");
    await db.query("VACUUM ANALYZE submissions");
    return c.id;
  } finally {
    await db.end();
  }
}
