import "server-only";
import { randomUUID } from "node:crypto";
import { metricOf, requireOrganizer, type CompetitionRow, type OrganizedCompetition } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { consumeRateLimit } from "@/lib/server/platform/rate-limit";
import { type FileDetails, fileDetails } from "@/lib/server/platform/uploads";
import { keepSubmissionFile } from "./files";
import { scoreUpload } from "./upload";
import type { PublicUser } from "@/lib/server/accounts/users";
import { noteSchema, safeFilename } from "@/lib/validation/files";
import type { BaselineInput } from "@/lib/validation/competitions";
import { isUuid } from "@/lib/validation/ids";
import type { SandboxRow } from "@/lib/responses";

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
  const { description } = noteSchema.parse({ description: file.description ?? "" });
  const filename = safeFilename(file.name ?? "") ?? "submission.csv";
  const row = await keepSubmissionFile(
    { competitionId: competition.id, id: randomUUID(), compressed: scored.kept.compressed },
    ({ id, storageKey }) =>
      db.unrankedSubmission.create({
        data: {
          id,
          competitionId: competition.id,
          kind: "sandbox",
          userId: user.id,
          fileSha256: scored.sha256,
          publicValue: scored.publicValue,
          holdoutValue: scored.holdoutValue,
          description,
          filename,
          fileSize: scored.kept.size,
          storageKey,
        },
        select: SANDBOX_SELECT,
      }),
    () => true,
  );
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
    baseline: r.baselineName === null ? null : { name: r.baselineName, score: metric.toDisplay(r.publicValue) },
  };
}

/** GET …/sandbox (organizers): every sandbox test, newest first. */
export async function listSandbox(competition: OrganizedCompetition): Promise<SandboxRow[]> {
  const rows = await db.unrankedSubmission.findMany({ where: { competitionId: competition.id, kind: "sandbox" }, orderBy: { createdAt: "desc" }, select: SANDBOX_SELECT });
  return rows.map((r) => present(competition, r));
}

/**
 * PUT …/sandbox/{id}/baseline `{name}` (organizers): shows the sandbox test on the leaderboard as
 * a baseline row, unranked, with its exact public score, which releases nothing about the holdout
 * and is what the board's own scores are (docs/mechanism.md §2.6). `null` (DELETE) hides it.
 */
export async function setBaseline(user: PublicUser, slug: string, id: string, input: BaselineInput | null): Promise<SandboxRow> {
  const competition = await requireOrganizer(user, slug);
  const name = input?.name ?? null;
  if (!isUuid(id)) throw new AppError("not_found", "no such sandbox test");
  const row = await db.unrankedSubmission.findFirst({ where: { id, competitionId: competition.id, kind: "sandbox" }, select: { id: true } });
  if (!row) throw new AppError("not_found", "no such sandbox test");
  const updated = await db.unrankedSubmission.update({
    where: { id },
    data: { baselineName: name },
    select: SANDBOX_SELECT,
  });
  return present(competition, updated);
}
