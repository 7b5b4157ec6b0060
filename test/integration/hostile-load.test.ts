import pg from "pg";
import { describe, expect, it } from "vitest";
import { parseSolution } from "@/lib/csv/solution";
import { closeCompetition } from "@/lib/server/closing/finals";
import { addAttachment } from "@/lib/server/competitions/attachments";
import { deleteDraft } from "@/lib/server/competitions/lifecycle";
import { SolutionCache, solutionCache } from "@/lib/server/competitions/solution-cache";
import { loadSolution, uploadSolution } from "@/lib/server/competitions/solutions";
import { db } from "@/lib/server/platform/db";
import { scoringData } from "@/lib/server/scoring/upload";
import { demoSolutionCsv } from "@/prisma/demo-solution";
import { draftCompetition, publishedCompetition, stream } from "@/test/support/factories";

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

describe("the solution cache", () => {
  /** A solution of n rows whose arrays take 24 bytes a row: an id of 10 and its line break, its start, a Float64 label and a split byte. */
  const solutionOf = (n: number) =>
    parseSolution(["id,label,split", ...Array.from({ length: n }, (_, i) => `r${String(i).padStart(9, "0")},1,${i % 2 ? "public" : "holdout"}`)].join("\n"), "number");

  it("keeps decoded solutions and what is derived from them within its budget in bytes, the least recently used going first", () => {
    const cache = new SolutionCache(() => 100_000);
    const [a, b, c] = [solutionOf(1000), solutionOf(1000), solutionOf(1000)];
    const size = a.ids.byteLength + a.labels.byteLength + a.split.byteLength;
    expect(size).toBe(24 * 1000 + 4);
    cache.keep("a", "sha-a", a, true);
    cache.keep("b", "sha-b", b, true);
    cache.keep("c", "sha-c", c, true);
    expect(cache.stats()).toEqual({ competitions: ["a", "b", "c"], bytes: 3 * size });
    expect(cache.get("a")!.solution).toBe(a); // a is now the most recently used
    expect(cache.derived(c, "index", () => ({ value: "c's index", bytes: 40_000 }))).toBe("c's index");
    expect(cache.stats()).toEqual({ competitions: ["c", "a"], bytes: 2 * size + 40_000 }); // b went first
    expect(cache.derived(c, "index", () => ({ value: "made again", bytes: 1 }))).toBe("c's index");
    cache.keep("d", "sha-d", solutionOf(5000), true); // larger than the budget on its own: kept, all else goes
    expect(cache.stats().competitions).toEqual(["d"]);
    cache.forget("d");
    expect(cache.stats()).toEqual({ competitions: [], bytes: 0 });
  });

  it("counts a competition's scoring index with its solution", async () => {
    const { competition } = await publishedCompetition();
    const solution = (await loadSolution(competition.id, { published: true }))!;
    const own = solutionCache.get(competition.id)!.bytes;
    await scoringData(competition);
    const derived = solutionCache.get(competition.id)!.bytes - own;
    // The id index's table (2 to 4 slots of 4 bytes an id), the rows of each split (4 bytes a row), up
    // to 4 working arrays of 8 bytes a row (a class metric's) and the sketch's 128 rows.
    const rows = solution.ids.length;
    expect(derived).toBeGreaterThanOrEqual((8 + 4 + 32) * rows + 512);
    expect(derived).toBeLessThanOrEqual((16 + 4 + 32) * rows + 512);
  });

  it("lets a deleted draft's solution go, and a closed competition's unless it takes late submissions", async () => {
    const draft = await draftCompetition({ solution: demoSolutionCsv() });
    await loadSolution(draft.competition.id);
    expect(solutionCache.stats().competitions).toContain(draft.competition.id);
    await deleteDraft(draft.owner, draft.slug);
    expect(solutionCache.stats().competitions).not.toContain(draft.competition.id);

    // Deleted by another instance: this one drops its copy at its next look.
    const elsewhere = await draftCompetition({ solution: demoSolutionCsv() });
    await loadSolution(elsewhere.competition.id);
    await db.competition.delete({ where: { id: elsewhere.competition.id } });
    expect(await loadSolution(elsewhere.competition.id)).toBeNull();
    expect(solutionCache.stats().competitions).not.toContain(elsewhere.competition.id);

    const closing = await publishedCompetition();
    const late = await publishedCompetition({ settings: { lateSubmissions: true } });
    for (const c of [closing, late]) await loadSolution(c.id, { published: true });
    await closeCompetition(closing.owner, closing.slug);
    await closeCompetition(late.owner, late.slug);
    expect(solutionCache.stats().competitions).not.toContain(closing.id);
    expect(solutionCache.stats().competitions).toContain(late.id);
  });
});
