import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/** The bookkeeping table of `prisma migrate deploy`, created exactly as Prisma creates it. */
const PRISMA_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** Any fixed number: serialises concurrent migrators (several app instances starting at once). */
const LOCK_ID = 72_707_369;

export type MigrationResult = { applied: string[]; alreadyApplied: string[] };

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in one transaction, recording
 * it in _prisma_migrations with Prisma's checksum (SHA-256 of the file), so this and
 * `prisma migrate deploy` can take turns on one database. Refuses to run when an applied migration
 * was edited afterwards or an earlier one failed half-way (as Prisma does, P3009/P3006-style).
 */
export async function migrate(databaseUrl: string, migrationsDir = path.resolve("prisma/migrations")): Promise<MigrationResult> {
  const names = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_ID]);
    await client.query(PRISMA_MIGRATIONS_TABLE);
    const rows = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const done = new Map(rows.rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    for (const name of names) {
      const sql = await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      const previous = done.get(name);
      if (previous?.finished_at) {
        if (previous.checksum !== checksum) throw new Error(`migration ${name} was modified after it was applied (checksum differs); restore the file or reset the database`);
        result.alreadyApplied.push(name);
        continue;
      }
      if (previous) throw new Error(`migration ${name} failed earlier and is marked unfinished in _prisma_migrations; resolve it before migrating`);
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), now(), 1)`, [
          randomUUID(),
          checksum,
          name,
        ]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${name} failed and was rolled back: ${(error as Error).message}`);
      }
      result.applied.push(name);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_ID]).catch(() => {});
    await client.end();
  }
  return result;
}
