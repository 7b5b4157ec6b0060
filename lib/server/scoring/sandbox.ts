import "server-only";
import { randomUUID } from "node:crypto";
import { metricOf, requireOrganizer, type CompetitionRow } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { consumeRateLimit } from "@/lib/server/platform/rate-limit";
import { type FileDetails, fileDetails } from "@/lib/server/platform/uploads";
import { scoreUpload } from "./upload";
import { thresholdoutParams } from "@/lib/server/competitions/competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { createStreams } from "@/lib/mechanism/rng";
import { remeasureHoldout } from "@/lib/mechanism/thresholdout";
import { descriptionSchema, safeFilename } from "@/lib/validation/files";
import { baselineSchema } from "@/lib/validation/competitions";
import { isUuid } from "@/lib/validation/ids";

/** A sandbox test as organizers see it: exact scores in display units, and its baseline name when shown. */
export type SandboxRow = {
  id: string;
  createdAt: string;
  by: string;
  publicScore: number;
  holdoutScore: number;
  description: string | null;
  filename: string | null;
  baseline: { name: string; score: number } | null;
};

/**
 * POST …/submissions?sandbox=true (organizers): a file tested against the key with the full
 * validation of a submission, answered with its exact public and holdout scores. Nothing is spent,
 * ranked or shown to competitors; it works in a draft too, to check the key before publishing.
 */
export async function testInSandbox(user: PublicUser, slug: string, body: ReadableStream<Uint8Array> | null, details: FileDetails): Promise<SandboxRow> {
  const competition = await requireOrganizer(user, slug);
  await consumeRateLimit("submissions", user.id);
  if (!body) throw new AppError("unprocessable_entity", 'send the predictions CSV as the request body or as the multipart field "file"');
  const scored = await scoreUpload(competition, metricOf(competition), body);
  const file = await fileDetails(details);
  const description = descriptionSchema.parse(file.description ?? "");
  const filename = safeFilename(file.name ?? "") ?? "submission.csv";
  const row = await db.unrankedSubmission.create({
    data: {
      id: randomUUID(),
      competitionId: competition.id,
      kind: "sandbox",
      userId: user.id,
      fileSha256: scored.sha256,
      publicValue: scored.publicValue,
      holdoutValue: scored.holdoutValue,
      description,
      filename,
      fileSize: scored.kept.size,
      fileData: new Uint8Array(scored.kept.gzip),
    },
    select: SANDBOX_SELECT,
  });
  return present(competition, row);
}

const SANDBOX_SELECT = {
  id: true,
  createdAt: true,
  publicValue: true,
  holdoutValue: true,
  description: true,
  filename: true,
  baselineName: true,
  baselineValue: true,
  user: { select: { name: true } },
} as const;

type Stored = {
  id: string;
  createdAt: Date;
  publicValue: number;
  holdoutValue: number;
  description: string | null;
  filename: string | null;
  baselineName: string | null;
  baselineValue: number | null;
  user: { name: string };
};

function present(competition: CompetitionRow, r: Stored): SandboxRow {
  const metric = metricOf(competition);
  return {
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    by: r.user.name,
    publicScore: metric.toDisplay(r.publicValue),
    holdoutScore: metric.toDisplay(r.holdoutValue),
    description: r.description,
    filename: r.filename,
    baseline: r.baselineName === null || r.baselineValue === null ? null : { name: r.baselineName, score: metric.toDisplay(r.baselineValue) },
  };
}

/** GET …/sandbox (organizers): every sandbox test, newest first. */
export async function listSandbox(competition: CompetitionRow): Promise<SandboxRow[]> {
  const rows = await db.unrankedSubmission.findMany({ where: { competitionId: competition.id, kind: "sandbox" }, orderBy: { createdAt: "desc" }, select: SANDBOX_SELECT });
  return rows.map((r) => present(competition, r));
}

/**
 * PUT …/sandbox/{id}/baseline `{name}` (organizers): shows the sandbox test on the leaderboard as
 * a baseline row, unranked. Its score is released like a team's best: the holdout value plus one
 * draw of the re-measurement noise Lap(4σ) (docs/mechanism.md §2.6), from a stream of its own, so
 * that competitors never see an exact holdout score and the holdout's privacy account counts it as
 * one re-measurement. The draw is fixed per test: hiding and showing it again releases nothing new.
 * Needs the mechanism, hence a published competition. `null` (DELETE) hides it.
 */
export async function setBaseline(user: PublicUser, slug: string, id: string, input: unknown | null): Promise<SandboxRow> {
  const competition = await requireOrganizer(user, slug);
  const name = input === null ? null : baselineSchema.parse(input).name;
  if (!isUuid(id)) throw new AppError("not_found", "no such sandbox test");
  const row = await db.unrankedSubmission.findFirst({ where: { id, competitionId: competition.id, kind: "sandbox" }, select: { holdoutValue: true } });
  if (!row) throw new AppError("not_found", "no such sandbox test");
  let score: number | null = null;
  if (name !== null) {
    // Drawn afresh each time from the same stream, hence the same value.
    const solution = await db.solution.findUnique({ where: { competitionId: competition.id }, select: { holdoutRows: true } });
    if (competition.sigma === null || !solution) throw new AppError("conflict", "a baseline is shown with the mechanism's noise: publish the competition first");
    const { secret } = await db.competition.findUniqueOrThrow({ where: { id: competition.id }, select: { secret: true } });
    score = remeasureHoldout(thresholdoutParams(competition, solution.holdoutRows), 1, row.holdoutValue, createStreams(secret, `baseline:${id}`));
  }
  // A hidden baseline keeps its drawn score: it was released, and the privacy account keeps counting it.
  const updated = await db.unrankedSubmission.update({
    where: { id },
    data: name === null ? { baselineName: null } : { baselineName: name, baselineValue: score },
    select: SANDBOX_SELECT,
  });
  return present(competition, updated);
}
