import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { closeCompetition } from "@/lib/server/closing/finals";
import { competitionListStatement, listCompetitions } from "@/lib/server/competitions/competitions";
import { createTeam } from "@/lib/server/teams/teams";
import { competitionListQuerySchema } from "@/lib/validation/competitions";
import { draftCompetition, newUser, publishedCompetition, rejection } from "@/test/support/factories";

// The competitions list's filters (GET /api/v1/competitions, the competitions page): what each
// finds, what stays hidden, and that the title search and "mine" read indexes at any size.

const query = (q: Record<string, string>) => competitionListQuerySchema.parse(q);
const slugs = async (viewer: Parameters<typeof listCompetitions>[0], q: Record<string, string>) =>
  (await listCompetitions(viewer, query(q))).competitions.map((c) => c.slug).sort();

describe("the competitions list", async () => {
  // A word no other test's title holds, so each search sees only this file's competitions.
  const word = `zq${randomBytes(4).toString("hex")}`;
  const day = 86_400_000;
  const open = await publishedCompetition({ settings: { title: `${word} Household Power Spikes` } });
  const later = await publishedCompetition({ settings: { title: `${word} Solar Forecast`, startsAt: new Date(Date.now() + 5 * day).toISOString() }, days: 20 });
  const closed = await publishedCompetition({ settings: { title: `${word} Wind Power` } });
  await closeCompetition(closed.owner, closed.slug);
  const draft = await draftCompetition({ settings: { title: `${word} Secret Draft` } });
  const player = await newUser("player");
  await createTeam(player, open.slug, { name: `Team ${word}`, acceptRules: true });

  it("finds titles by the start of each word, in any case, all words required", async () => {
    expect(await slugs(null, { q: word })).toEqual([open.slug, later.slug, closed.slug].sort());
    expect(await slugs(null, { q: `${word} POW` })).toEqual([open.slug, closed.slug].sort());
    expect(await slugs(null, { q: `${word} power spi` })).toEqual([open.slug]);
    expect(await slugs(null, { q: `${word} ower` })).toEqual([]); // the middle of a word is not its start
    expect(await slugs(null, { q: `${word} & | ! :* (power)` })).toEqual([open.slug, closed.slug].sort()); // tsquery's operators are not passed on
  });

  it("filters by status: open (taking entries), upcoming (opening later), closed", async () => {
    expect(await slugs(null, { q: word, status: "open" })).toEqual([open.slug]);
    expect(await slugs(null, { q: word, status: "upcoming" })).toEqual([later.slug]);
    expect(await slugs(null, { q: word, status: "closed" })).toEqual([closed.slug]);
  });

  it("shows a draft to its organizers only, and mine to a team's members and the organizers", async () => {
    expect(await slugs(draft.owner, { q: word })).toEqual([open.slug, later.slug, closed.slug, draft.slug].sort());
    expect(await slugs(player, { q: word })).not.toContain(draft.slug);
    expect(await slugs(player, { mine: "true" })).toEqual([open.slug]);
    expect(await slugs(draft.owner, { mine: "true" })).toEqual([draft.slug]);
    expect(await slugs(open.owner, { mine: "true", q: word })).toEqual([open.slug]);
    const signedOut = await rejection(listCompetitions(null, query({ mine: "true" })));
    expect([signedOut.status, signedOut.message]).toEqual([401, "sign in to list your own competitions (mine=true)"]);
  });

  it("answers a page at a time, with how many match in all, open ones first", async () => {
    const first = await listCompetitions(null, query({ q: word, pageSize: "2" }));
    const second = await listCompetitions(null, query({ q: word, pageSize: "2", page: "2" }));
    expect([first.total, first.page, first.pageSize, second.total]).toEqual([3, 1, 2, 3]);
    expect([...first.competitions, ...second.competitions].map((c) => c.slug)).toEqual([open.slug, later.slug, closed.slug]);
    expect(first.competitions[0]).toMatchObject({ title: `${word} Household Power Spikes`, status: "published", startsAt: null, closedAt: null, teams: 1 });
    expect(first.competitions[1].startsAt).toBe(later.competition.startsAt!.toISOString());
  });

  it("refuses a status it does not know, in words", () => {
    const refused = competitionListQuerySchema.safeParse({ status: "live" });
    expect(refused.error?.issues.map((i) => i.message)).toEqual(["status must be open, upcoming or closed"]);
  });

  it("reads the title's index and the members' index among 20,000 competitions, not every row", async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL session_replication_role = replica"); // no foreign-key checks for the made-up members' users
      // 20,000 copies of one competition with titles of their own, and a membership for each; all rolled back.
      const { rows: columns } = await client.query<{ name: string }>(
        `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'competitions' ORDER BY ordinal_position`,
      );
      const copied = columns.map((c) => `"${c.name}"`);
      const values = columns.map((c) =>
        c.name === "id" ? "gen_random_uuid()" : c.name === "slug" ? `'bulk-' || g` : c.name === "title" ? `'Bulk ' || md5(g::text) || ' ' || g` : `src."${c.name}"`,
      );
      await client.query(`INSERT INTO competitions (${copied.join(", ")}) SELECT ${values.join(", ")} FROM competitions src, generate_series(1, 20000) g WHERE src.slug = $1`, [
        open.slug,
      ]);
      await client.query(
        `INSERT INTO team_members (competition_id, user_id, team_id) SELECT c.id, gen_random_uuid(), t.id FROM competitions c, teams t WHERE c.slug LIKE 'bulk-%' AND t.competition_id = $1::uuid LIMIT 20000`,
        [open.id],
      );
      await client.query("ANALYZE competitions");
      await client.query("ANALYZE team_members");
      // Each node of the plan that reads a table: how, which table, through which index.
      const plan = async (q: Record<string, string>) => {
        const statement = competitionListStatement(player, query({ ...q, pageSize: "24" }), new Date());
        const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values);
        const reads: string[] = [];
        const walk = (node: Record<string, unknown>) => {
          if (node["Relation Name"]) reads.push(`${node["Node Type"]} ${node["Relation Name"]}${node["Index Name"] ? ` ${node["Index Name"]}` : ""}`);
          for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
        };
        walk(rows[0]["QUERY PLAN"][0].Plan);
        return reads;
      };
      const search = await plan({ q: "power spikes" });
      expect(search).toContain("Bitmap Heap Scan competitions");
      expect(search.filter((r) => r.startsWith("Seq Scan competitions"))).toEqual([]);
      const mine = await plan({ mine: "true" });
      expect(mine.some((r) => r.endsWith("team_members team_members_user_id_idx"))).toBe(true);
      // The two large tables are never read whole (the organizers' small one may be, at the planner's choice).
      expect(mine.filter((r) => /^Seq Scan (competitions|team_members)$/.test(r))).toEqual([]);
    } finally {
      await client.query("ROLLBACK");
      await client.end();
    }
  });
});
