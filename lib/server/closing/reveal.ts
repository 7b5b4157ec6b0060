import "server-only";
import { COMPETITION_SELECT, type CompetitionRow, getVisibleCompetition, requireOrganizer, thresholdoutParams } from "@/lib/server/competitions/competitions";
import { loadSolution, shapesOf } from "@/lib/server/competitions/solutions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { unpackKept } from "@/lib/server/platform/csv-upload";
import { db, lockCompetition } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { fileStore } from "@/lib/server/platform/files";
import { csvLines } from "@/lib/csv/writer";
import { type Reveal, TRANSCRIPT_COLUMNS } from "@/lib/responses";

// A close that anyone can verify (docs/mechanism.md §2.10): publishing committed to the solution's
// bytes and to the mechanism's secret with its settings; after the close the organizers may reveal
// them with every answer, and anyone recomputes each released answer from them (`quiltboard verify`,
// the Python client's verify()) and checks the commitment's hashes.

/** POST …/reveal (organizers, once closed): publishes the solution, the secret and the transcript; answering again changes nothing. */
export async function revealCompetition(user: PublicUser, slug: string): Promise<CompetitionRow> {
  const competition = await requireOrganizer(user, slug);
  return db.$transaction(async (tx) => {
    const status = await lockCompetition(tx, competition.id);
    if (status !== "closed") throw new AppError("conflict", "the solution and the secret can be revealed once the competition has closed");
    const solution = await tx.solution.findUnique({ where: { competitionId: competition.id }, select: { fileSize: true } });
    if (solution?.fileSize == null || competition.secretCommitment === null)
      throw new AppError("conflict", "this competition was published before solutions were kept for the reveal");
    return tx.competition.update({ where: { id: competition.id }, data: { revealedAt: competition.revealedAt ?? new Date() }, select: COMPETITION_SELECT });
  });
}

/** A revealed competition as anyone who may see it reads it; 404 before the reveal. */
async function revealed(viewer: PublicUser | null, slug: string): Promise<CompetitionRow> {
  const competition = await getVisibleCompetition(viewer, slug);
  if (competition.revealedAt === null) throw new AppError("not_found", "this competition's solution and secret have not been revealed (its organizers may, after the close)");
  return competition;
}

/**
 * GET …/reveal: what a verifier needs. The commitment; the secret (hex) and the settings text its
 * commitment hashes; the mechanism's parameters (σ, T, the answers' decimals, m and Δ, the most one
 * holdout row moves a query: 1/n for a mean); where to fetch the solution as uploaded and the
 * transcript, with their sizes.
 */
export async function getReveal(viewer: PublicUser | null, slug: string): Promise<Reveal> {
  const competition = await revealed(viewer, slug);
  const [{ secret }, solutionFile, queries] = await Promise.all([
    db.competition.findUniqueOrThrow({ where: { id: competition.id }, select: { secret: true } }),
    db.solution.findUniqueOrThrow({ where: { competitionId: competition.id }, select: { sha256: true, fileSize: true } }),
    db.submission.count({ where: { competitionId: competition.id } }),
  ]);
  const solution = await loadSolution(competition.id, { published: true });
  const params = thresholdoutParams(competition, shapesOf(competition, solution!).holdout);
  const base = `/api/v1/competitions/${competition.slug}/reveal`;
  return {
    commitment: { solution: competition.solutionCommitment!, secret: competition.secretCommitment!, publishedAt: competition.publishedAt!.toISOString() },
    revealedAt: competition.revealedAt!.toISOString(),
    secret: Buffer.from(secret).toString("hex"),
    settings: competition.committedSettings!,
    mechanism: { sigma: params.sigma, threshold: params.threshold, answerDecimals: params.answerDecimals, maxQueries: params.maxQueries, sensitivity: params.sensitivity },
    solution: { url: `${base}/solution`, sha256: solutionFile.sha256, size: solutionFile.fileSize! },
    transcript: { url: `${base}/transcript`, queries },
  };
}

/** GET …/reveal/solution: the solution file, byte for byte as the organizers uploaded it (kept compressed in the file store). */
export async function revealedSolution(viewer: PublicUser | null, slug: string): Promise<{ size: number; body: ReadableStream<Uint8Array> }> {
  const competition = await revealed(viewer, slug);
  const { fileSize, fileKey } = await db.solution.findUniqueOrThrow({ where: { competitionId: competition.id }, select: { fileSize: true, fileKey: true } });
  if (fileKey === null) throw new AppError("unavailable", "the file is being moved into the file store; try again in a minute", { retryAfter: 60 });
  return { size: fileSize!, body: await unpackKept(await fileStore().get(fileKey)) };
}

/** Queries read per statement of the transcript. */
const PAGE = 5000;

/**
 * GET …/reveal/transcript: every team's queries as CSV, in order of stream (the team whose noise
 * streams drew the query: a merged team keeps the absorbed team's) and query index, each with its
 * team now, its public and holdout values, kind, released answer and budget before and after, read a
 * page at a time as the client takes them.
 */
export async function revealedTranscript(viewer: PublicUser | null, slug: string): Promise<ReadableStream<Uint8Array>> {
  const competition = await revealed(viewer, slug);
  const encoder = new TextEncoder();
  let cursor: { stream: string; index: number } | null = null;
  let header = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (header) {
          header = false;
          return controller.enqueue(encoder.encode(csvLines([[...TRANSCRIPT_COLUMNS]])));
        }
        const rows = await db.submission.findMany({
          where: {
            competitionId: competition.id,
            ...(cursor ? { OR: [{ streamTeamId: { gt: cursor.stream } }, { streamTeamId: cursor.stream, queryIndex: { gt: cursor.index } }] } : {}),
          },
          orderBy: [{ streamTeamId: "asc" }, { queryIndex: "asc" }],
          take: PAGE,
          select: {
            id: true,
            teamId: true,
            team: { select: { name: true } },
            streamTeamId: true,
            queryIndex: true,
            position: true,
            createdAt: true,
            kind: true,
            publicValue: true,
            holdoutValue: true,
            answer: true,
            budgetBefore: true,
            budgetAfter: true,
          },
        });
        if (rows.length === 0) return controller.close();
        const last = rows[rows.length - 1];
        cursor = { stream: last.streamTeamId, index: last.queryIndex };
        controller.enqueue(
          encoder.encode(
            csvLines(
              rows.map((r) => [
                r.id,
                r.teamId,
                r.team.name,
                r.streamTeamId,
                r.queryIndex,
                r.position,
                r.createdAt.toISOString(),
                r.kind,
                r.publicValue,
                r.holdoutValue,
                r.answer,
                r.budgetBefore,
                r.budgetAfter,
              ]),
            ),
          ),
        );
      },
    },
    { highWaterMark: 0 },
  );
}
