import pg from "pg";
import { describe, expect, it } from "vitest";
import { addAttachment } from "@/lib/server/competitions/attachments";
import { loadSolution, uploadSolution } from "@/lib/server/competitions/solutions";
import { db } from "@/lib/server/platform/db";
import { demoSolutionCsv } from "@/prisma/demo-solution";
import { draftCompetition, stream } from "@/test/support/factories";

// Issue 39, resources one account can hold or exhaust: what the services do, on the real database.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds `lock` (a statement taking a lock) in a transaction of its own for `ms`, as a slow change would. */
async function holding(lock: string, values: unknown[], ms: number): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query("BEGIN");
  await client.query(lock, values);
  const released = sleep(ms).then(async () => {
    await client.query("COMMIT");
    await client.end();
  });
  return () => released;
}

describe("large organizer uploads under load", () => {
  // Prisma's interactive transactions give up after 5 s: a solution or a data file whose write
  // waited longer (for the draft's lock, or to send tens of MB to a busy database) was a 500.
  it("stores a solution whose write waits 6 s for the draft's row lock", async () => {
    const { owner, slug, competition } = await draftCompetition();
    const release = await holding("SELECT 1 FROM competitions WHERE id = $1 FOR UPDATE", [competition.id], 6000);
    const summary = await uploadSolution(owner, slug, stream(demoSolutionCsv()));
    await release();
    expect(summary).toMatchObject({ rows: 2880 });
    expect((await loadSolution(competition.id))!.ids.length).toBe(2880);
  });

  it("stores a data file whose write waits 6 s for the lock on the competition's files", async () => {
    const { owner, slug, competition } = await draftCompetition();
    const release = await holding("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`attachments:${competition.id}`], 6000);
    const stored = await addAttachment(owner, slug, stream("a,b\n1,2\n"), async () => ({ name: "train.csv", contentType: "text/csv", description: null }));
    await release();
    expect(stored).toMatchObject({ filename: "train.csv", contentType: "text/csv", size: 8 });
    expect(Math.abs(Date.parse(stored.createdAt) - Date.now())).toBeLessThan(30_000);
    expect(await db.attachment.count({ where: { competitionId: competition.id } })).toBe(1);
  });
});
