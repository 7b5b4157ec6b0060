import { mkdirSync, rmSync, utimesSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { closeCompetition } from "@/lib/server/closing/finals";
import { revealCompetition, revealedSolution } from "@/lib/server/closing/reveal";
import { deleteDraft } from "@/lib/server/competitions/lifecycle";
import { moveSolutionFilesToStore, sweepSolutionFiles, uploadSolution } from "@/lib/server/competitions/solutions";
import { db } from "@/lib/server/platform/db";
import { fileStore } from "@/lib/server/platform/files";
import { runDueJobs } from "@/lib/server/platform/periodic";
import { getSubmissionFile, moveSubmissionFilesToStore, storeSweep, sweepSubmissionFiles } from "@/lib/server/scoring/files";
import { testInSandbox } from "@/lib/server/scoring/sandbox";
import { submit } from "@/lib/server/scoring/submit";
import { createTeam } from "@/lib/server/teams/teams";
import { demoPredictionsCsv, demoSolutionCsv } from "@/prisma/demo-solution";
import { draftCompetition, newUser, publishedCompetition, rejection, stream, tag } from "@/test/support/factories";
import { fileStores } from "../support/file-stores";

// The kept copies of submissions and solutions in the file store, with each backend: written before
// the row that names them is committed and removed when none is, served back byte for byte, moved
// out of the database by a step that may be interrupted and run again, and swept when no row names
// them.

const text = async (body: ReadableStream<Uint8Array>) => new Response(body).text();
const bytes = async (key: string) => Buffer.from(await new Response(await fileStore().get(key)).arrayBuffer());

/** Every key of the store under `prefix`. */
async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of fileStore().list(prefix)) keys.push(file.key);
  return keys.sort();
}

const stores = fileStores();

async function competitorIn(slug: string) {
  const player = await newUser();
  await createTeam(player, slug, { name: `Kept ${tag()}`, acceptRules: true });
  return player;
}

describe.each(stores.backends)("kept files in the %s store", (kind, configure) => {
  beforeAll(() => configure());

  it("writes a submission's file before its answer, serves it back, and keeps no file of a replayed or refused one", async () => {
    const { slug, id } = await publishedCompetition();
    const player = await competitorIn(slug);
    const csv = demoPredictionsCsv({ skill: 0.8, seed: "1" });
    const { result } = await submit(player, slug, stream(csv), { idempotencyKey: "key-1" });
    const row = await db.submissionFile.findUniqueOrThrow({ where: { submissionId: result.id }, select: { storageKey: true, data: true, size: true } });
    expect(row).toEqual({ storageKey: `submissions/${id}/${result.id}`, data: null, size: Buffer.byteLength(csv) });
    const file = await getSubmissionFile(player, slug, result.id);
    expect([file.size, await text(file.body)]).toEqual([Buffer.byteLength(csv), csv]);

    // The same key and file: answered again, its second copy removed; another file under it: 409, nothing kept.
    expect((await submit(player, slug, stream(csv), { idempotencyKey: "key-1" })).replayed).toBe(true);
    const refused = await rejection(submit(player, slug, stream(demoPredictionsCsv({ skill: 0.7, seed: "2" })), { idempotencyKey: "key-1" }));
    expect(refused.status).toBe(409);
    expect(await keysUnder(`submissions/${id}/`)).toEqual([`submissions/${id}/${result.id}`]);
  });

  it("keeps sandbox tests' and solutions' files in the store, removes a replaced solution's and a deleted draft's, and reveals the solution from it", async () => {
    const { owner, slug, competition } = await draftCompetition({ solution: demoSolutionCsv() });
    const first = (await db.solution.findUniqueOrThrow({ where: { competitionId: competition.id }, select: { fileKey: true, file: true } })).fileKey!;
    expect(first).toMatch(new RegExp(`^solutions/${competition.id}/[0-9a-f-]{36}$`));
    await uploadSolution(owner, slug, stream(demoSolutionCsv()));
    const second = (await db.solution.findUniqueOrThrow({ where: { competitionId: competition.id }, select: { fileKey: true } })).fileKey!;
    expect(await keysUnder(`solutions/${competition.id}/`)).toEqual([second]);
    const sandbox = await testInSandbox(owner, slug, stream(demoPredictionsCsv({ skill: 0.8, seed: "3" })), {});
    expect(await text((await getSubmissionFile(owner, slug, sandbox.id)).body)).toBe(demoPredictionsCsv({ skill: 0.8, seed: "3" }));
    expect(await keysUnder(`submissions/${competition.id}/`)).toEqual([`submissions/${competition.id}/${sandbox.id}`]);
    await deleteDraft(owner, slug);
    expect([...(await keysUnder(`solutions/${competition.id}/`)), ...(await keysUnder(`submissions/${competition.id}/`))]).toEqual([]);

    const published = await publishedCompetition();
    await closeCompetition(published.owner, published.slug);
    await revealCompetition(published.owner, published.slug);
    const revealed = await revealedSolution(null, published.slug);
    expect([revealed.size, await text(revealed.body)]).toEqual([Buffer.byteLength(demoSolutionCsv()), demoSolutionCsv()]);
  });

  it("moves the files kept in the database into the store, and finishes a move that was interrupted", async () => {
    const { owner, slug, id } = await publishedCompetition();
    const player = await competitorIn(slug);
    const csvs = [1, 2, 3].map((seed) => demoPredictionsCsv({ skill: 0.6 + seed / 10, seed: String(seed) }));
    const ids = [];
    for (const csv of csvs) ids.push((await submit(player, slug, stream(csv))).result.id);
    const sandbox = await testInSandbox(owner, slug, stream(csvs[0]), {});
    const solutionKey = (await db.solution.findUniqueOrThrow({ where: { competitionId: id }, select: { fileKey: true } })).fileKey!;
    // As the app kept them before the store held them: the compressed bytes in the rows, no key.
    for (const submissionId of ids) {
      const key = `submissions/${id}/${submissionId}`;
      await db.$executeRaw`UPDATE submission_files SET data = ${await bytes(key)}, storage_key = NULL WHERE submission_id = ${submissionId}::uuid`;
      await fileStore().delete(key);
    }
    const sandboxKey = `submissions/${id}/${sandbox.id}`;
    await db.$executeRaw`UPDATE unranked_submissions SET file_data = ${await bytes(sandboxKey)}, storage_key = NULL WHERE id = ${sandbox.id}::uuid`;
    await fileStore().delete(sandboxKey);
    const solution = await bytes(solutionKey);
    await db.$executeRaw`UPDATE solutions SET file = ${solution}, file_key = NULL WHERE competition_id = ${id}::uuid`;
    await fileStore().delete(solutionKey);
    expect((await rejection(getSubmissionFile(player, slug, ids[0]))).status).toBe(503); // until it is moved

    // An earlier run was killed after it wrote the sandbox test's file, before it pointed the row at it.
    await fileStore().put(sandboxKey, new Response("half a file").body!);
    const blocked = path.join(path.resolve(process.env.QUILTBOARD_FILES_DIR!), "submissions", id, ids[1]);
    if (kind === "local") {
      // This run stops at the second submission: its file cannot be written (a directory holds its name).
      mkdirSync(path.join(blocked, "in-the-way"), { recursive: true });
      await expect(moveSubmissionFilesToStore()).rejects.toThrow();
      const rows = await db.submissionFile.findMany({ where: { submissionId: { in: ids } }, select: { storageKey: true, data: true } });
      expect(rows.every((r) => (r.storageKey === null) !== (r.data === null))).toBe(true); // each in one place, whole
      expect(rows.filter((r) => r.storageKey === null).length).toBeGreaterThanOrEqual(1);
      rmSync(blocked, { recursive: true });
    }
    const left = await db.submissionFile.count({ where: { submissionId: { in: ids }, storageKey: null } });
    expect(await moveSubmissionFilesToStore()).toBe(left + 1);
    expect(await moveSolutionFilesToStore()).toBeGreaterThanOrEqual(1);
    expect([await moveSubmissionFilesToStore(), await moveSolutionFilesToStore()]).toEqual([0, 0]);

    for (const [i, submissionId] of ids.entries()) expect(await text((await getSubmissionFile(player, slug, submissionId)).body)).toBe(csvs[i]);
    expect(await text((await getSubmissionFile(owner, slug, sandbox.id)).body)).toBe(csvs[0]);
    const moved = await db.solution.findUniqueOrThrow({ where: { competitionId: id }, select: { fileKey: true, file: true, sha256: true } });
    expect(moved.file).toBeNull();
    expect(moved.fileKey).toBe(`solutions/${id}/${moved.sha256}`);
    expect((await bytes(moved.fileKey!)).equals(solution)).toBe(true);
  });

  it("sweeps the files no row names once they are an hour old, and only those", async () => {
    const { slug, id } = await publishedCompetition();
    const player = await competitorIn(slug);
    const { result } = await submit(player, slug, stream(demoPredictionsCsv({ skill: 0.8, seed: "5" })));
    const named = `submissions/${id}/${result.id}`;
    const orphan = `submissions/${id}/${crypto.randomUUID()}`;
    const solutionOrphan = `solutions/${id}/${crypto.randomUUID()}`;
    for (const key of [orphan, solutionOrphan]) await fileStore().put(key, new Response("left by a killed app").body!);
    // Written just now: a row may still be on its way.
    await Promise.all([sweepSubmissionFiles(), sweepSolutionFiles()]);
    expect(await keysUnder(`submissions/${id}/`)).toEqual([named, orphan].sort());
    // Two hours on (the local files aged; the S3 bucket is this file's own, so its clock moves instead).
    let now = new Date();
    if (kind === "local") {
      const root = path.resolve(process.env.QUILTBOARD_FILES_DIR!);
      const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
      for (const key of [named, orphan, solutionOrphan]) utimesSync(path.join(root, key), old, old);
    } else now = new Date(Date.now() + 2 * 60 * 60 * 1000);
    await sweepSubmissionFiles(now);
    await sweepSolutionFiles(now);
    expect(await keysUnder(`submissions/${id}/`)).toEqual([named]);
    expect(await keysUnder(`solutions/${id}/`)).toEqual([(await db.solution.findUniqueOrThrow({ where: { competitionId: id }, select: { fileKey: true } })).fileKey]);
  });

  it("is swept by exactly one of two instances' scheduler ticks per 6-hour period, and only of old files no row names", async () => {
    const { slug, id } = await publishedCompetition();
    const player = await competitorIn(slug);
    const { result } = await submit(player, slug, stream(demoPredictionsCsv({ skill: 0.8, seed: "6" })));
    const named = `submissions/${id}/${result.id}`;
    const orphan = `submissions/${id}/${crypto.randomUUID()}`;
    await fileStore().put(orphan, new Response("left by a killed app").body!);
    // The job as the scheduler runs it, under a name of this test's own (the mark is shared by the whole database).
    const job = { ...storeSweep, name: `${storeSweep.name}-${tag()}` };
    expect(storeSweep.periodMs).toBe(6 * 60 * 60 * 1000);
    const ticks = async (now: Date) => (await Promise.all([runDueJobs([job], now), runDueJobs([job], now)])).flat();

    // Two instances tick at once: one sweeps; the orphan, written just now, stays.
    expect(await ticks(new Date())).toEqual([job.name]);
    expect(await keysUnder(`submissions/${id}/`)).toEqual([named, orphan].sort());

    // Two hours on, the orphan is old enough, but the period's sweep has run: no instance sweeps again.
    let now = new Date();
    if (kind === "local") {
      const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
      for (const key of [named, orphan]) utimesSync(path.join(path.resolve(process.env.QUILTBOARD_FILES_DIR!), key), old, old);
    } else now = new Date(Date.now() + 2 * 60 * 60 * 1000);
    const fresh = `submissions/${id}/${crypto.randomUUID()}`;
    if (kind === "local") await fileStore().put(fresh, new Response("a row is on its way").body!);
    expect(await ticks(now)).toEqual([]);
    expect(await keysUnder(`submissions/${id}/`)).toHaveLength(kind === "local" ? 3 : 2);

    // The next period (its mark moved back 6 hours): exactly one instance sweeps; the old orphan goes, the named file and the fresh one stay.
    await db.periodicRun.update({ where: { name: job.name }, data: { lastRunAt: new Date(now.getTime() - storeSweep.periodMs) } });
    expect(await ticks(now)).toEqual([job.name]);
    expect(await keysUnder(`submissions/${id}/`)).toEqual((kind === "local" ? [named, fresh] : [named]).sort());
  });
});
