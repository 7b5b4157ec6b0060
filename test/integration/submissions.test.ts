import { gzipSync } from "node:zlib";
import { scoreDecimals } from "@/lib/metrics/display";
import { describe, expect, it } from "vitest";
import { createTeamSchema } from "@/lib/validation/teams";
import { boundSettingFor, scoreInterval } from "@/lib/calibration/score-bounds";
import { answerDecimalsFor } from "@/lib/mechanism/thresholdout";
import { auditCompetition, holdoutHealth } from "@/lib/server/scoring/audit";
import { setMechanism } from "@/lib/server/competitions/calibration";
import { createCompetition, getVisibleCompetition, requireOrganizer, toPublicDetails } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { fileStore } from "@/lib/server/platform/files";
import { AppError } from "@/lib/server/platform/errors";
import { uploadSolution } from "@/lib/server/competitions/solutions";
import { listMySubmissions, selectFinal } from "@/lib/server/scoring/team-submissions";
import { submit } from "@/lib/server/scoring/submit";
import { banUser } from "@/lib/server/competitions/access";
import { createTeam, getMyTeam, joinTeam, leaveTeam, setDisqualified } from "@/lib/server/teams/teams";
import { demoPredictionsCsv, demoSolutionCsv } from "@/prisma/demo-solution";
import { publishCompetition } from "@/lib/server/competitions/publish";
import { closeCompetition } from "@/lib/server/boards/finals";
import { ACKNOWLEDGE_ALL, tag, stream, newUser, rejection, draftCompetition, publishedCompetition } from "@/test/support/factories";
import { epsPerHoldoutAnswer } from "@/lib/mechanism/accounting";
import { getSubmissionFile } from "@/lib/server/scoring/files";
import { syntheticPredictions, syntheticSolution } from "@/scripts/support/rest-client";
import { createCompetitionSchema } from "@/lib/validation/competitions";

/** The frames of a zstd file (RFC 8878 §3.1.1), each with the content size its header records and whether it carries a checksum. */
function zstdFrames(data: Buffer): { contentSize: number | null; checksum: boolean }[] {
  const frames: { contentSize: number | null; checksum: boolean }[] = [];
  let at = 0;
  while (at < data.length) {
    if (data.readUInt32LE(at) !== 0xfd2fb528) throw new Error(`no zstd frame at byte ${at}`);
    const descriptor = data[at + 4];
    const single = (descriptor >> 5) & 1;
    const sizeBytes = [single, 2, 4, 8][descriptor >> 6];
    at += 5 + (single ? 0 : 1) + [0, 1, 2, 4][descriptor & 3]; // the window and dictionary fields
    const contentSize = sizeBytes === 0 ? null : sizeBytes === 8 ? Number(data.readBigUInt64LE(at)) : data.readUIntLE(at, sizeBytes) + (sizeBytes === 2 ? 256 : 0);
    at += sizeBytes;
    for (let last = false; !last;) {
      const header = data.readUIntLE(at, 3); // last block (1 bit), type (2 bits), size (21 bits)
      last = (header & 1) === 1;
      at += 3 + (((header >> 1) & 3) === 1 ? 1 : header >>> 3); // an RLE block holds one byte
    }
    const checksum = ((descriptor >> 2) & 1) === 1;
    at += checksum ? 4 : 0;
    frames.push({ contentSize, checksum });
  }
  return frames;
}

const SOLUTION = demoSolutionCsv();
const ROWS = SOLUTION.trim()
  .split("\n")
  .slice(1)
  .map((l) => l.split(","));

/** A predictions CSV that gets each row right with probability `skill` (deterministic per seed). */
function predictions(skill: number, seed = 1): string {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return ["id,prediction", ...ROWS.map(([id, label]) => `${id},${rnd() < skill ? label : label === "spike" ? "none" : "spike"}`)].join("\n");
}

async function liveCompetition(options: { daily?: number; budget?: number; sigma?: number; threshold?: number; maxQueries?: number; holdoutCap?: number } = {}) {
  return publishedCompetition({
    settings: { dailySubmissionLimit: options.daily ?? 1000, maxTeamSize: 3, holdoutCap: options.holdoutCap },
    mechanism: { mode: "practical", sigma: options.sigma ?? 0.01, threshold: options.threshold ?? 0.04, budget: options.budget ?? 5, maxQueries: options.maxQueries },
  });
}

async function snapshot(competitionId: string) {
  const [submissions, teams] = await Promise.all([
    db.submission.count({ where: { competitionId } }),
    db.team.findMany({
      where: { competitionId },
      orderBy: { id: "asc" },
      select: { budgetRemaining: true, queryCount: true, noisyThreshold: true, submissionCount: true, bestValue: true },
    }),
  ]);
  return { submissions, teams };
}

describe("scoring through the mechanism", () => {
  it("answers with the public score when it agrees with the holdout, and stores raw scores for organizers", async () => {
    // With T = 0.5 and σ = 0.01 the two scores (about 0.8 each) could only be told apart by noise of
    // 0.45 or more: Laplace noise of scale 4σ or less gets there with probability below 10⁻⁵.
    const c = await liveCompetition({ threshold: 0.5 });
    const player = await newUser();
    await createTeam(player, c.slug, { name: "Agreeable", acceptRules: true });
    const { result } = await submit(player, c.slug, stream(predictions(0.8)));
    expect(result.budget).toEqual({ remaining: 5, initial: 5 });
    expect(result.answer.kind).toBe("public");
    const row = await db.submission.findUniqueOrThrow({ where: { id: result.id } });
    expect(row.queryIndex).toBe(1);
    expect(Math.abs(row.publicValue - 0.8)).toBeLessThan(0.05);
    // The team always sees its own exact public score (docs/mechanism.md §2.2), and the answer is it.
    expect(result.answer.publicScore).toBe(row.publicValue);
    expect(Math.abs(result.answer.score! - row.publicValue)).toBeLessThan(2 ** -20);
    const team = await db.team.findFirstOrThrow({ where: { competitionId: c.id } });
    // The board shows the released answer itself (public first), with no re-measurement.
    expect(team).toMatchObject({
      submissionCount: 1,
      queryCount: 1,
      bestValue: row.answer,
      bestKind: row.kind,
      bestAt: row.createdAt,
      bestPosition: 1,
      bestPrior: 0,
      budgetRemaining: result.budget.remaining,
    });
    expect(row.position).toBe(1);
    expect(team.noisyThreshold).not.toBeNull();
  });

  it("reads a 2 MB file as it arrives and keeps it byte for byte, as zstd frames compressed meanwhile", async () => {
    const rows = 200_000;
    const { slug } = await publishedCompetition({ solution: syntheticSolution(rows), mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 5 } });
    const player = await newUser();
    await createTeam(player, slug, { name: `Big ${tag()}`, acceptRules: true });
    // Rows in the solution's order, a few out of it, and Windows line endings halfway through.
    const lines = syntheticPredictions(rows, 3).split("\n");
    [lines[10], lines[20_000]] = [lines[20_000], lines[10]];
    const csv = `${lines.slice(0, rows / 2).join("\n")}\r\n${lines.slice(rows / 2).join("\r\n")}\r\n`;
    const { result } = await submit(player, slug, stream(csv, 64 * 1024));
    const stored = await db.submissionFile.findUniqueOrThrow({ where: { submissionId: result.id }, select: { data: true, storageKey: true } });
    expect(stored.data).toBeNull(); // the bytes are in the file store, not the database
    // One frame per MiB read, each recording its size and a checksum of its content.
    const bytes = Buffer.byteLength(csv);
    const sizes = Array.from({ length: Math.ceil(bytes / 2 ** 20) }, (_, i) => Math.min(2 ** 20, bytes - i * 2 ** 20));
    const kept = Buffer.from(await new Response(await fileStore().get(stored.storageKey!)).arrayBuffer());
    expect(zstdFrames(kept)).toEqual(sizes.map((contentSize) => ({ contentSize, checksum: true })));
    const file = await getSubmissionFile(player, slug, result.id);
    expect([file.size, await new Response(file.body).text()]).toEqual([bytes, csv]);
  });

  it("still serves byte for byte a file kept as gzip members, as every file was before zstd", async () => {
    const { slug } = await publishedCompetition({ solution: syntheticSolution(200_000), mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 5 } });
    const player = await newUser();
    await createTeam(player, slug, { name: `Old ${tag()}`, acceptRules: true });
    const csv = `${syntheticPredictions(200_000, 4)}\n`;
    const { result } = await submit(player, slug, stream(csv, 64 * 1024));
    // The copy as the code before kept it: a level-1 gzip member per MiB (RFC 1952 §2.2).
    const raw = Buffer.from(csv);
    const members = Array.from({ length: Math.ceil(raw.length / 2 ** 20) }, (_, i) => gzipSync(raw.subarray(i * 2 ** 20, (i + 1) * 2 ** 20), { level: 1 }));
    const { storageKey } = await db.submissionFile.findUniqueOrThrow({ where: { submissionId: result.id }, select: { storageKey: true } });
    await fileStore().put(storageKey!, new Response(Buffer.concat(members)).body!);
    const file = await getSubmissionFile(player, slug, result.id);
    expect([file.size, await new Response(file.body).text()]).toEqual([raw.length, csv]);
  });

  it("the board row keeps the best public answer; a holdout answer shows only while there is none, the latest one", async () => {
    // T = 0.001 with σ tiny: a file whose public and holdout scores differ by more is charged, one that agrees is public.
    const c = await liveCompetition({ sigma: 0.00001, threshold: 0.001, budget: 10 });
    const player = await newUser();
    await createTeam(player, c.slug, { name: "Rowing", acceptRules: true });
    const row = () => db.team.findFirstOrThrow({ where: { competitionId: c.id }, select: { bestValue: true, bestKind: true } });
    const answers = [];
    for (const [skill, seed] of [
      [0.6, 1],
      [0.7, 2],
      [0.9, 3],
      [0.8, 4],
    ])
      answers.push((await submit(player, c.slug, stream(predictions(skill, seed)))).result.answer);
    const stored = await db.submission.findMany({ where: { competitionId: c.id }, orderBy: { queryIndex: "asc" }, select: { kind: true, answer: true } });
    // Replay the rule by hand on what was stored: best public answer, else latest holdout answer.
    const publics = stored.filter((s) => s.kind === "public").map((s) => s.answer!);
    const holdouts = stored.filter((s) => s.kind === "holdout").map((s) => s.answer!);
    const expected = publics.length ? { bestValue: Math.max(...publics), bestKind: "public" } : { bestValue: holdouts.at(-1)!, bestKind: "holdout" };
    expect(await row()).toEqual(expected);
    expect(answers.every((a) => typeof a.publicScore === "number")).toBe(true);
  });

  it("rejects bad files, a missing team, the daily cap, before start and after close, changing nothing", async () => {
    const c = await liveCompetition({ daily: 1 });
    const player = await newUser();
    const outsider = await newUser();
    await createTeam(player, c.slug, { name: "Careful", acceptRules: true });
    const before = await snapshot(c.id);
    const bad = await rejection(submit(player, c.slug, stream("id,prediction\nnope,spike\n")));
    expect(bad.status).toBe(422);
    expect(bad.details).toEqual([{ line: 2, message: 'id "nope" is not in the test set' }]);
    const missing = await rejection(submit(player, c.slug, stream(`id,prediction\n${ROWS[0][0]},spike\n`)));
    expect(missing.message).toMatch(/2879 test ids have no prediction, e\.g\./);
    expect((await rejection(submit(player, c.slug, stream("id,guess\n")))).message).toContain("missing column prediction");
    expect((await rejection(submit(outsider, c.slug, stream(predictions(0.5))))).status).toBe(403);
    expect(await snapshot(c.id)).toEqual(before);

    await submit(player, c.slug, stream(predictions(0.5)));
    const afterOne = await snapshot(c.id);
    const capped = await rejection(submit(player, c.slug, stream(predictions(0.5))));
    expect(capped.status).toBe(429);
    expect(capped.message).toContain("used its 1 submissions for today (UTC)");
    expect(await snapshot(c.id)).toEqual(afterOne);

    const early = await rejection(submit(player, c.slug, stream(predictions(0.5)), { now: new Date(Date.now() + 86_400_000 * 30) }));
    expect(early.status).toBe(409);
    await closeCompetition(c.owner, c.slug);
    expect((await rejection(submit(player, c.slug, stream(predictions(0.5))))).message).toBe("this competition has closed");
    expect(await snapshot(c.id)).toEqual(afterOne);
  });

  it("refuses a non-member, a banned member, a disqualified team and a team over its daily cap before reading a byte of the file", async () => {
    const c = await liveCompetition({ daily: 1 });
    const [player, outsider, banned, cheat] = await Promise.all([newUser(), newUser(), newUser(), newUser()]);
    await createTeam(player, c.slug, { name: "Capped", acceptRules: true });
    await createTeam(banned, c.slug, { name: "Banned", acceptRules: true });
    const cheats = await createTeam(cheat, c.slug, { name: "Cheats", acceptRules: true });
    await banUser(await requireOrganizer(c.owner, c.slug), { email: banned.email, reason: "a second account" });
    await setDisqualified(c.owner, c.slug, cheats.id, { reason: "copied files" });
    const { result } = await submit(player, c.slug, stream(predictions(0.5)), { idempotencyKey: "first" });
    /** A body that counts how often it is read from (a refused upload must not be). */
    let pulls = 0;
    const watched = () =>
      new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulls++;
            controller.enqueue(new TextEncoder().encode(predictions(0.5)));
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
    for (const [who, status, message] of [
      [outsider, 403, "join or create a team in this competition before submitting"],
      [banned, 403, "the organizers banned you from this competition: a second account"],
      [cheat, 403, "your team was disqualified by the organizers: copied files"],
      [player, 429, "your team has used its 1 submissions for today (UTC); the count resets at midnight UTC"],
    ] as const) {
      const error = await rejection(submit(who, c.slug, watched()));
      expect([error.status, error.message]).toEqual([status, message]);
    }
    expect(pulls).toBe(0);
    // The daily cap does not stop a retry of an answered submission: its key answers it again.
    const again = await submit(player, c.slug, stream(predictions(0.5)), { idempotencyKey: "first" });
    expect([again.replayed, again.result.id]).toEqual([true, result.id]);
  });

  it("a probability metric rejects predictions outside [0, 1] with the line", async () => {
    const owner = await newUser();
    const slug = `prob-${tag()}`;
    await createCompetition(
      owner,
      createCompetitionSchema.parse({ slug, title: "Probabilities", metric: { name: "brier" }, endsAt: new Date(Date.now() + 86_400_000).toISOString() }),
    );
    await uploadSolution(owner, slug, stream("id,label,split\na,1,public\nb,0,holdout\n"));
    await setMechanism(owner, slug, { mode: "practical", sigma: 0.01, threshold: 0.5, budget: 3 });
    await publishCompetition(owner, slug, ACKNOWLEDGE_ALL);
    const player = await newUser();
    await createTeam(player, slug, { name: "Probable", acceptRules: true });
    const error = await rejection(submit(player, slug, stream("id,prediction\na,0.3\nb,1.2\n")));
    expect(error.details).toEqual([{ line: 3, message: 'prediction must be a probability in [0, 1], found "1.2"' }]);
    // Nothing was spent by the refusal; the valid file's Brier score is 0.01 on both rows, so the public
    // answer is released (T = 0.5: noise of 0.5 has probability below 10⁻⁵), on the mechanism's grid
    // (thresholdout.ts snapToGrid; 2⁻¹⁰ here): the value 1 − 0.01 is 1014/1024.
    const { answer, budget } = (await submit(player, slug, stream("id,prediction\na,0.9\nb,0.1\n"))).result;
    expect([answer.kind, budget.remaining]).toEqual(["public", 3]);
    expect(answer.score).toBe(10 / 1024);
  });

  it("ROC AUC: a one-class split is refused at upload; Δ = 1/min(n₊, n₋) prices each holdout answer; ranks, not means, score", async () => {
    const { owner, slug } = await draftCompetition({ metric: "roc-auc" });
    const oneClass = await rejection(uploadSolution(owner, slug, stream("id,label,split\na,1,public\nb,0,public\nc,1,holdout\nd,1,holdout\n")));
    expect([oneClass.status, oneClass.message]).toEqual([422, "the holdout rows: ROC AUC needs both classes, found 2 positive and 0 negative rows"]);
    // 400 rows: even rows public, odd rows holdout; every third row positive (67 of the 200 holdout rows).
    const rows = Array.from({ length: 400 }, (_, i) => ({ id: `r${i}`, label: i % 3 === 0 ? 1 : 0, split: i % 2 ? "holdout" : "public" }));
    await uploadSolution(owner, slug, stream(["id,label,split", ...rows.map((r) => `${r.id},${r.label},${r.split}`)].join("\n")));
    // σ = 0.001: the check's noise is below 0.04 − 0 = T with probability 1 − e^{−15}, so the kinds below are certain.
    await setMechanism(owner, slug, { mode: "practical", sigma: 0.001, threshold: 0.04, budget: 3 });
    await publishCompetition(owner, slug, ACKNOWLEDGE_ALL);
    const player = await newUser();
    await createTeam(player, slug, { name: "Ranked", acceptRules: true });
    const csv = (score: (r: (typeof rows)[number], i: number) => number) => stream(["id,prediction", ...rows.map((r, i) => `${r.id},${score(r, i)}`)].join("\n"));
    // Any increasing transform of the labels ranks perfectly: AUC 1 on both splits, so the public score counts.
    const perfect = await submit(
      player,
      slug,
      csv((r) => 0.4 + 0.2 * r.label),
    );
    // Its bound counts ROC AUC's N = n₊n₋/n = 67·133/200 holdout rows through McDiarmid's inequality
    // (not a mean: no Chernoff–KL form; docs/mechanism.md §2.5, §2.8), at the first query with no holdout answer before it.
    const { maxQueries } = await db.competition.findUniqueOrThrow({ where: { slug }, select: { maxQueries: true } });
    const bounds = boundSettingFor(
      {
        concentration: { size: (67 * 133) / 200, kl: false },
        maxQueries: maxQueries!,
        decimals: answerDecimalsFor(0.001),
        capped: false,
        sigma: 0.001,
        threshold: 0.04,
        sensitivity: 1 / 67,
        beta: 0.05,
      },
      3,
    );
    const at = (value: number, index: number) => scoreInterval(bounds, { kind: "public", value, index, prior: 0, budget: 3 });
    // Its numbers are shown to the decimals the bound supports (lib/metrics/display.ts; the competition shows 5 otherwise).
    expect(perfect.result.answer).toEqual({ kind: "public", score: 1, publicScore: 1, bound: 1 - at(1, 1).lower, decimals: scoreDecimals(1 - at(1, 1).lower, 5) });
    expect(perfect.result.answer.bound).toBeGreaterThan(0.3);
    // Constant predictions tie every pair: exactly ½.
    expect(
      (
        await submit(
          player,
          slug,
          csv(() => 0.5),
        )
      ).result.answer,
    ).toEqual({
      kind: "public",
      score: 0.5,
      publicScore: 0.5,
      bound: Math.max(at(0.5, 2).upper - 0.5, 0.5 - at(0.5, 2).lower),
      decimals: scoreDecimals(Math.max(at(0.5, 2).upper - 0.5, 0.5 - at(0.5, 2).lower), 5),
    });
    // Right on the public rows, reversed on the holdout: public 1, holdout 0, so the holdout answers (with noise).
    const leak = await submit(
      player,
      slug,
      csv((r, i) => (i % 2 ? 1 - r.label : r.label)),
    );
    expect(leak.result.answer.kind).toBe("holdout");
    expect(leak.result.answer.publicScore).toBe(1);
    expect(leak.result.answer.score!).toBeLessThan(0.05); // 0 + Lap(4σ): beyond 0.05 with probability e^{−12.5}/2
    const health = await holdoutHealth(owner, slug);
    expect(health.perHoldoutAnswer).toBeCloseTo(epsPerHoldoutAnswer(0.001, 1 / 67), 12); // min(n₊, n₋) = 67 holdout positives
    expect(health.teams[0].holdoutAnswers).toBe(1);
    expect((await auditCompetition(owner, slug)).mismatches).toBe(0);
  });

  it("returns the first result for a repeated Idempotency-Key, even when both race", async () => {
    const c = await liveCompetition();
    const player = await newUser();
    await createTeam(player, c.slug, { name: "Retry", acceptRules: true });
    const key = `key-${tag()}`;
    const [a, b] = await Promise.all([
      submit(player, c.slug, stream(predictions(0.7)), { idempotencyKey: key }),
      submit(player, c.slug, stream(predictions(0.7)), { idempotencyKey: key }),
    ]);
    const c3 = await submit(player, c.slug, stream(predictions(0.7)), { idempotencyKey: key });
    expect(b.result).toEqual(a.result);
    expect(c3.result).toEqual(a.result);
    expect([a.replayed, b.replayed].filter(Boolean)).toHaveLength(1);
    expect(await db.submission.count({ where: { competitionId: c.id } })).toBe(1);
  });

  it("scopes an Idempotency-Key to the team in one competition, and refuses it for a different file (409)", async () => {
    const c = await liveCompetition();
    const other = await liveCompetition();
    const player = await newUser();
    const mate = await newUser();
    const { inviteCode } = await createTeam(player, c.slug, { name: "Keyed", acceptRules: true });
    await joinTeam(mate, c.slug, { inviteCode });
    await createTeam(player, other.slug, { name: "Keyed too", acceptRules: true });
    const first = await submit(player, c.slug, stream(predictions(0.7)), { idempotencyKey: "try-1" });
    // The same key from a teammate for the same file is the same submission…
    expect(await submit(mate, c.slug, stream(predictions(0.7)), { idempotencyKey: "try-1" })).toEqual({ result: first.result, replayed: true });
    // …for a different file it is a 409 that stores and spends nothing…
    const before = await snapshot(c.id);
    const error = await rejection(submit(player, c.slug, stream(predictions(0.9)), { idempotencyKey: "try-1" }));
    expect([error.status, error.message]).toEqual([409, "this Idempotency-Key was already used by your team for a different file; use a new key for a new submission"]);
    expect(await snapshot(c.id)).toEqual(before);
    // …and in another competition the key is free.
    expect((await submit(player, other.slug, stream(predictions(0.9)), { idempotencyKey: "try-1" })).replayed).toBe(false);
  });

  it("never answers after closing: a submission racing the close is either in the final standings or refused", async () => {
    for (let round = 0; round < 3; round++) {
      const c = await liveCompetition();
      const players = await Promise.all(Array.from({ length: 4 }, () => newUser()));
      await Promise.all(players.map((p, i) => createTeam(p, c.slug, { name: `Racer ${i}`, acceptRules: true })));
      const [submissions, closed] = await Promise.all([
        Promise.allSettled(players.map((p, i) => submit(p, c.slug, stream(predictions(0.6 + i / 10, round * 10 + i))))),
        closeCompetition(c.owner, c.slug),
      ]);
      const closedAt = closed.closedAt!;
      const stored = await db.submission.findMany({ where: { competitionId: c.id }, select: { createdAt: true, teamId: true } });
      // Everything stored was stored before the close, and each team that has a submission is ranked.
      for (const s of stored) expect(s.createdAt.getTime()).toBeLessThanOrEqual(closedAt.getTime());
      const ranked = await db.team.count({ where: { competitionId: c.id, finalRank: { not: null } } });
      expect(ranked).toBe(new Set(stored.map((s) => s.teamId)).size);
      for (const r of submissions) if (r.status === "rejected") expect((r.reason as AppError).message).toMatch(/has closed/);
      expect(submissions.filter((r) => r.status === "fulfilled").length).toBe(stored.length);
    }
  });

  it("serialises concurrent submissions of one team: every query index once, budget never below 0", async () => {
    const c = await liveCompetition({ budget: 6, sigma: 0.001, threshold: 0.001 });
    const player = await newUser();
    const mate = await newUser();
    const { inviteCode } = await createTeam(player, c.slug, { name: "Crowd", acceptRules: true });
    await joinTeam(mate, c.slug, { inviteCode });
    // Predictions whose public and holdout scores differ, so most queries are charged.
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => submit(i % 2 ? mate : player, c.slug, stream(predictions(0.3 + (i % 5) * 0.1, i + 1)))));
    const rows = await db.submission.findMany({ where: { competitionId: c.id }, orderBy: { queryIndex: "asc" } });
    expect(rows.map((r) => r.queryIndex)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const holdout = rows.filter((r) => r.kind === "holdout").length;
    expect(holdout).toBeLessThanOrEqual(6);
    for (let i = 1; i < rows.length; i++) expect(rows[i].budgetBefore).toBe(rows[i - 1].budgetAfter);
    const team = await db.team.findFirstOrThrow({ where: { competitionId: c.id } });
    expect(team.budgetRemaining).toBe(6 - holdout);
    expect(team.budgetRemaining).toBeGreaterThanOrEqual(0);
    expect(Math.min(...results.map((r) => r.result.budget.remaining))).toBe(team.budgetRemaining);
    expect(rows.some((r) => r.kind === "exhausted")).toBe(holdout === 6);

    const audit = await auditCompetition(c.owner, c.slug);
    expect(audit).toEqual({ queries: 24, mismatches: 0, examples: [] });
    const health = await holdoutHealth(c.owner, c.slug);
    // The epoch is open when a public answer came after the last holdout answer.
    const lastHoldout = Math.max(0, ...rows.filter((r) => r.kind === "holdout").map((r) => r.queryIndex));
    const openEpochs = rows.some((r) => r.kind === "public" && r.queryIndex > lastHoldout) ? 1 : 0;
    expect(health.teams[0]).toMatchObject({ holdoutAnswers: holdout, openEpochs, remaining: 6 - holdout });
    // 9 units per holdout answer, 8 for an open threshold epoch (accounting.ts).
    expect(health.total).toBeCloseTo(((9 * holdout + 8 * openEpochs) / 9) * health.perHoldoutAnswer, 12);
  });

  it("audit replay catches a tampered answer", async () => {
    const c = await liveCompetition();
    const player = await newUser();
    await createTeam(player, c.slug, { name: "Audited", acceptRules: true });
    for (let i = 0; i < 4; i++) await submit(player, c.slug, stream(predictions(0.6, i + 7)));
    expect((await auditCompetition(c.owner, c.slug)).mismatches).toBe(0);
    const victim = await db.submission.findFirstOrThrow({ where: { competitionId: c.id, queryIndex: 2 } });
    await db.submission.update({ where: { id: victim.id }, data: { answer: 0.999 } });
    const audit = await auditCompetition(c.owner, c.slug);
    expect(audit.mismatches).toBe(1);
    expect(audit.examples[0].submissionId).toBe(victim.id);
    await db.submission.update({ where: { id: victim.id }, data: { answer: victim.answer } });
    // The position a query was answered at is replayed too: it decides the limit m.
    const last = await db.submission.findFirstOrThrow({ where: { competitionId: c.id, queryIndex: 4 } });
    await db.submission.update({ where: { id: last.id }, data: { position: 4 + 10_000_000 } });
    expect((await auditCompetition(c.owner, c.slug)).examples).toEqual([{ submissionId: last.id, problem: expect.stringMatching(/^stored \w+ .* replay gives limit null/) }]);
  });

  it("keeps the time of the team's best through later answers, whatever the server's time zone", async () => {
    // The scoring transaction reads and writes `best_at` (a UTC timestamp without a zone) through
    // node-postgres, which reads such a column in the process's zone unless told otherwise.
    const zone = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      const c = await liveCompetition({ sigma: 0.001 });
      const player = await newUser();
      await createTeam(player, c.slug, { name: "Punctual", acceptRules: true });
      const first = new Date(Date.now() - 3_600_000);
      await submit(player, c.slug, stream(predictions(0.9, 3)), { now: first });
      await submit(player, c.slug, stream(predictions(0.2, 4)), { now: new Date(first.getTime() + 60_000) });
      const team = await db.team.findFirstOrThrow({ where: { competitionId: c.id }, select: { bestAt: true, submissionCount: true } });
      expect(team).toEqual({ bestAt: new Date(first.toISOString().slice(0, 23) + "Z"), submissionCount: 2 });
    } finally {
      process.env.TZ = zone;
    }
  });
});

describe("limits of the guarantee (docs/mechanism.md §2.6)", () => {
  const overfit = (seed: string) => stream(demoPredictionsCsv({ skill: 0, seed, overfit: true }));

  it("m: after m queries a team's answers say the limit is reached, spend nothing and do not count in the daily cap", async () => {
    const c = await liveCompetition({ maxQueries: 2, budget: 5, daily: 3 });
    const player = await newUser();
    await createTeam(player, c.slug, { name: "Counted", acceptRules: true });
    const kinds = [];
    for (let i = 0; i < 5; i++) kinds.push((await submit(player, c.slug, overfit(`m-${i}`))).result);
    // Five submissions on one day with a daily cap of 3: the three past m are not counted, so none is refused.
    expect(kinds.map((r) => r.answer.kind)).toEqual(["holdout", "holdout", "limit", "limit", "limit"]);
    expect(kinds.map((r) => r.answer.score)).toEqual([expect.any(Number), expect.any(Number), null, null, null]);
    expect(kinds.every((r) => typeof r.answer.publicScore === "number")).toBe(true);
    expect(kinds.map((r) => r.budget.remaining)).toEqual([4, 3, 3, 3, 3]);
    expect(await getMyTeam(player, c.slug)).toMatchObject({ scored: { used: 2, limit: 2 }, limits: { usedToday: 2, remainingToday: 1 } });
    expect(await auditCompetition(c.owner, c.slug)).toEqual({ queries: 5, mismatches: 0, examples: [] });
  });

  it("a competition-wide cap on holdout answers holds with teams submitting at once, and the details show it", async () => {
    const c = await liveCompetition({ holdoutCap: 3, budget: 5 });
    const players = await Promise.all(Array.from({ length: 4 }, () => newUser()));
    await Promise.all(players.map((p, i) => createTeam(p, c.slug, { name: `Capped ${i}`, acceptRules: true })));
    const results = await Promise.all(players.flatMap((p, i) => [0, 1].map((k) => submit(p, c.slug, overfit(`cap-${i}-${k}`)))));
    expect(results.filter((r) => r.result.answer.kind === "holdout")).toHaveLength(3);
    // Teams with budget left are told it is the competition's cap, not their budget, that stops the check.
    expect(results.filter((r) => r.result.answer.kind === "capped")).toHaveLength(5);
    const competition = await getVisibleCompetition(null, c.slug);
    expect(toPublicDetails(competition).holdout).toEqual({ answersReleased: 3, cap: 3 });
    expect(await auditCompetition(c.owner, c.slug)).toEqual({ queries: 8, mismatches: 0, examples: [] });
    const budgets = await db.team.findMany({ where: { competitionId: c.id }, select: { budgetRemaining: true } });
    expect(budgets.reduce((a, t) => a + (5 - t.budgetRemaining), 0)).toBe(3);
  });
});

describe("teams", () => {
  it("enforces the size limit, lets a member leave only before the first submission", async () => {
    const c = await liveCompetition();
    const [a, b, d, e] = await Promise.all([newUser(), newUser(), newUser(), newUser()]);
    const { inviteCode } = await createTeam(a, c.slug, { name: "Full", acceptRules: true });
    await joinTeam(b, c.slug, { inviteCode });
    await joinTeam(d, c.slug, { inviteCode });
    expect((await rejection(joinTeam(e, c.slug, { inviteCode }))).message).toBe("the team is full (at most 3 members)");
    await leaveTeam(d, c.slug);
    await submit(a, c.slug, stream(predictions(0.5)));
    expect((await rejection(leaveTeam(b, c.slug))).message).toBe("you cannot leave a team that has already submitted");
    expect((await rejection(createTeam(a, c.slug, { name: "Second", acceptRules: true }))).status).toBe(409);
    // Taking part without accepting the rules is refused where the body is parsed (the route, by createTeamSchema), before the service.
    expect(() => createTeamSchema.parse({ name: "No rules", acceptRules: false })).toThrow("accept the competition's rules to take part");
  });
});

describe("closing while submissions are in flight", () => {
  // Issue 24: a close while submissions were being scored deadlocked in PostgreSQL (the close held
  // the competition and waited for a team's row; the scoring held the team's row and waited for the
  // competition). Every submission must either be scored before the close or refused as closed.
  it("never deadlocks: each submission is scored or refused with 'closed', and the close succeeds", async () => {
    for (let round = 0; round < 4; round++) {
      const c = await liveCompetition();
      const players = await Promise.all(Array.from({ length: 6 }, () => newUser()));
      for (const [i, p] of players.entries()) await createTeam(p, c.slug, { name: `Closer ${i}`, acceptRules: true });
      // Each team has a final submission already, so the close writes every team's row.
      await Promise.all(players.map((p, i) => submit(p, c.slug, stream(predictions(0.6, i + 1)))));
      const files = players.map((_, i) => predictions(0.7, 100 + i));
      const inFlight = players.flatMap((p, i) => [0, 1, 2].map((k) => new Promise((r) => setTimeout(r, 8 * k + i)).then(() => submit(p, c.slug, stream(files[i])))));
      await new Promise((r) => setTimeout(r, 10 + 4 * round));
      const [closed, ...outcomes] = await Promise.allSettled([closeCompetition(c.owner, c.slug), ...inFlight]);
      expect(closed.status, closed.status === "rejected" ? String(closed.reason) : "").toBe("fulfilled");
      for (const o of outcomes) {
        if (o.status === "fulfilled") continue;
        expect(o.reason, String(o.reason)).toBeInstanceOf(AppError);
        expect((o.reason as AppError).message).toMatch(/has closed/);
      }
    }
  });
});

describe("final selection", () => {
  it("defaults to the submission the board shows (the best public answer, not the luckiest noisy one) and allows at most two", async () => {
    const c = await liveCompetition();
    const player = await newUser();
    await createTeam(player, c.slug, { name: "Finalists", acceptRules: true });
    const ids = [];
    for (const skill of [0.5, 0.9, 0.7]) ids.push((await submit(player, c.slug, stream(predictions(skill, skill * 10)))).result.id);
    // An overfit file gets a noisy holdout answer; a noisy answer above every public one must not become the default.
    ids.push((await submit(player, c.slug, stream(demoPredictionsCsv({ skill: 0, seed: "final-overfit", overfit: true })))).result.id);
    const mine = await listMySubmissions(player, c.slug);
    const publics = mine.submissions.filter((s) => s.answer.kind === "public");
    const expected = publics.length
      ? publics.reduce((b, s) => (s.answer.score! > b.answer.score! ? s : b))
      : mine.submissions.filter((s) => s.answer.kind === "holdout").sort((x, y) => y.createdAt.localeCompare(x.createdAt))[0];
    expect(mine.finalIds).toEqual([expected.id]);
    await selectFinal(player, c.slug, ids[0], { selected: true });
    await selectFinal(player, c.slug, ids[2], { selected: true });
    expect((await rejection(selectFinal(player, c.slug, ids[1], { selected: true }))).message).toContain("at most 2 submissions");
    expect((await listMySubmissions(player, c.slug)).finalIds.sort()).toEqual([ids[0], ids[2]].sort());
    const stranger = await newUser();
    expect((await rejection(selectFinal(stranger, c.slug, ids[0], { selected: false }))).status).toBe(404);
  });
});
