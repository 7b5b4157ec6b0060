import { createHash, randomBytes, randomUUID } from "node:crypto";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabaseIfMissing, dropDatabase } from "@/scripts/db/admin";
import { migrate } from "@/scripts/db/migrate";
import { PackedStrings } from "@/lib/csv/strings";

// Each test file gets its own database on the test server, so files can run in parallel.
const name = `migrate_${randomBytes(4).toString("hex")}`;
const admin = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: "/postgres" }).toString();
const url = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString();

beforeAll(() => createDatabaseIfMissing(admin, name));
afterAll(() => dropDatabase(admin, name));

describe("the project's migrator", () => {
  const migrations = readdirSync("prisma/migrations", { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

  it("applies every migration once and keeps Prisma's bookkeeping", async () => {
    const first = await migrate(url);
    expect(first.applied).toEqual(migrations);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const rows = await client.query(`SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`);
    const tables = await client.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
    await client.end();
    expect(rows.rows.map((r) => r.migration_name)).toEqual(migrations);
    for (const row of rows.rows) {
      const sql = readFileSync(path.join("prisma/migrations", row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    expect(tables.rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(["_prisma_migrations", "users", "api_tokens", "competitions"]));

    const second = await migrate(url);
    expect(second).toEqual({ applied: [], alreadyApplied: migrations });
  });

  it("refuses a migration edited after it was applied", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync("prisma/migrations", dir, { recursive: true });
    appendFileSync(path.join(dir, migrations[0], "migration.sql"), "\n-- edited\n");
    await expect(migrate(url, dir)).rejects.toThrow(`migration ${migrations[0]} was modified after it was applied`);
  });

  it("rolls back a failing migration and records nothing", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
    cpSync("prisma/migrations", dir, { recursive: true });
    const broken = path.join(dir, "99999999999999_broken");
    cpSync(path.join(dir, migrations[0]), broken, { recursive: true });
    writeFileSync(path.join(broken, "migration.sql"), `CREATE TABLE "half_done" (id INT);\nSELECT * FROM "no_such_table";\n`);
    await expect(migrate(url, dir)).rejects.toThrow("migration 99999999999999_broken failed and was rolled back");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const half = await client.query(`SELECT to_regclass('half_done') AS t`);
    const recorded = await client.query(`SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE migration_name = '99999999999999_broken'`);
    await client.end();
    expect(half.rows[0].t).toBeNull();
    expect(recorded.rows[0].n).toBe(0);
  });

  it("packs the group names of a solution stored before as JSON, a line break in one kept as a space", async () => {
    const name = `migrate_${randomBytes(4).toString("hex")}`;
    const older = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString();
    await createDatabaseIfMissing(admin, name);
    const client = new pg.Client({ connectionString: older });
    try {
      const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
      for (const m of migrations.filter((m) => m < "20261127210000_packed_group_names")) cpSync(path.join("prisma/migrations", m), path.join(dir, m), { recursive: true });
      cpSync("prisma/migrations/migration_lock.toml", path.join(dir, "migration_lock.toml"));
      await migrate(older, dir);
      await client.connect();
      const [user, competition] = [randomUUID(), randomUUID()];
      await client.query(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, 'Old', 'x')`, [user, `${name}@example.com`]);
      await client.query(`INSERT INTO competitions (id, slug, title, metric, ends_at, created_by_id, secret) VALUES ($1, $2, 'Old', 'accuracy', now(), $3, '\\x00')`, [
        competition,
        name,
        user,
      ]);
      await client.query(
        `INSERT INTO solutions (competition_id, rows, public_rows, holdout_rows, ids, labels, split, group_codes, group_names, sha256)
         VALUES ($1, 3, 1, 2, convert_to(E'a\\nb\\nc', 'UTF8'), '\\x', '\\x000101', '\\x', $2, 'old')`,
        [competition, JSON.stringify(["household 1", "", "two\nlines", "naïve"])],
      );
      await migrate(older);
      const { rows } = await client.query(`SELECT ids, group_names FROM solutions WHERE competition_id = $1`, [competition]);
      expect(new PackedStrings(rows[0].group_names).toArray()).toEqual(["household 1", "", "two lines", "naïve"]);
      expect(new PackedStrings(rows[0].ids).toArray()).toEqual(["a", "b", "c"]); // ids stored joined, as before
    } finally {
      await client.end();
      await dropDatabase(admin, name);
    }
  });

  it("turns the webhooks' lists of every event known when each was created into all events, and leaves a choice of some", async () => {
    const name = `migrate_${randomBytes(4).toString("hex")}`;
    const older = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString();
    await createDatabaseIfMissing(admin, name);
    const client = new pg.Client({ connectionString: older });
    try {
      const dir = mkdtempSync(path.join(tmpdir(), "migrations-"));
      for (const m of migrations.filter((m) => m < "20261128010500_webhooks_all_events")) cpSync(path.join("prisma/migrations", m), path.join(dir, m), { recursive: true });
      cpSync("prisma/migrations/migration_lock.toml", path.join(dir, "migration_lock.toml"));
      await migrate(older, dir);
      await client.connect();
      const [user, competition] = [randomUUID(), randomUUID()];
      await client.query(`INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, 'Old', 'x')`, [user, `${name}@example.com`]);
      await client.query(`INSERT INTO competitions (id, slug, title, metric, ends_at, created_by_id, secret) VALUES ($1, $2, 'Old', 'accuracy', now(), $3, '\\x00')`, [
        competition,
        name,
        user,
      ]);
      const four = ["submission.scored", "announcement.posted", "settings.changed", "competition.closed"];
      const webhooks: [string, string[], string, boolean][] = [
        // [what, events, created at (UTC), all afterwards]
        ["the default before team.merged existed", four, "2026-11-27 21:00:00", true],
        ["the default since", ["submission.scored", "team.merged", "announcement.posted", "settings.changed", "competition.closed"], "2026-11-28 00:10:00", true],
        ["every event, ticked in another order", ["team.merged", ...four.toReversed()], "2026-11-28 00:20:00", true],
        ["all but team.merged, chosen once it was offered", four, "2026-11-28 00:30:00", false],
        ["one event", ["settings.changed"], "2026-11-27 21:00:00", false],
        ["all but one, before team.merged", four.slice(1), "2026-11-27 21:00:00", false],
      ];
      const ids = webhooks.map(() => randomUUID());
      for (const [i, [, events, at]] of webhooks.entries())
        await client.query(
          `INSERT INTO webhooks (id, competition_id, url, events, secret, created_by_id, created_at) VALUES ($1, $2, 'https://example.org/h', $3, 'whsec_x', $4, $5)`,
          [ids[i], competition, events, user, at],
        );
      await migrate(older);
      const { rows } = await client.query<{ id: string; events: string[]; all_events: boolean }>(`SELECT id, events, all_events FROM webhooks`);
      const after = new Map(rows.map((r) => [r.id, r]));
      for (const [i, [what, events, , all]] of webhooks.entries()) expect(after.get(ids[i]), what).toEqual({ id: ids[i], events: all ? [] : events, all_events: all });
      await expect(client.query(`UPDATE webhooks SET events = '{}', all_events = false WHERE id = $1`, [ids[4]])).rejects.toThrow(/webhooks_all_events_or_a_list/);
    } finally {
      await client.end();
      await dropDatabase(admin, name);
    }
  });
});
