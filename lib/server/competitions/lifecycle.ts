import "server-only";
import { type CompetitionRow, getVisibleCompetition, requireOrganizer } from "./competitions";
import { solutionCache } from "./solution-cache";
import { db, lockCompetition } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { fileStore } from "@/lib/server/platform/files";
import { log } from "@/lib/server/platform/log";
import type { PublicUser } from "@/lib/server/accounts/users";
import type { Prisma } from "@/lib/generated/prisma/client";

// A competition's life: draft → published → closed (docs/ARCHITECTURE.md, "A competition's life").
// This module owns the rules that pages and services ask about: what a draft may change and when a
// competition takes entries. Publishing is publish.ts; closing, which computes the final standings,
// is lib/server/closing/finals.ts.

// Draft

/** Draft-only changes; 409 once published (the solution and mechanism are locked). */
export function requireDraft(competition: Pick<CompetitionRow, "status">, what: string): void {
  if (competition.status !== "draft") throw new AppError("conflict", `${what} cannot change once the competition is published`);
}

/** `requireDraft` under the competition's row lock, so a change cannot land after a publish that ran meanwhile. */
export async function lockDraft(tx: Prisma.TransactionClient, competitionId: string, what: string): Promise<void> {
  requireDraft({ status: await lockCompetition(tx, competitionId) }, what);
}

/**
 * DELETE …/competitions/{slug} (organizers): a draft is deleted with everything it holds (solution,
 * data files, sandbox tests, settings, their log); 409 once published, under the same row lock as
 * publishing. The files' bytes are removed from the file store once the rows are gone (a solution's
 * or sandbox test's that cannot be is logged and left to the sweep: platform/files.ts sweepStore).
 */
export async function deleteDraft(user: PublicUser, slug: string): Promise<void> {
  const competition = await requireOrganizer(user, slug);
  const keys = await db.$transaction(async (tx) => {
    if ((await lockCompetition(tx, competition.id)) !== "draft")
      throw new AppError("conflict", "only a draft can be deleted: a published competition keeps its teams' submissions; close it instead");
    const stored = await tx.$queryRaw<{ key: string }[]>`
      SELECT file_key AS key FROM solutions WHERE competition_id = ${competition.id}::uuid AND file_key IS NOT NULL
      UNION ALL SELECT storage_key FROM attachments WHERE competition_id = ${competition.id}::uuid AND storage_key IS NOT NULL
      UNION ALL SELECT storage_key FROM unranked_submissions WHERE competition_id = ${competition.id}::uuid AND storage_key IS NOT NULL`;
    await tx.competition.delete({ where: { id: competition.id } });
    return stored.map((s) => s.key);
  });
  solutionCache.forget(competition.id); // other instances drop theirs at their next look (solutions.ts loadSolution), or as the least used
  for (const key of keys) {
    await fileStore()
      .delete(key)
      .catch((error: unknown) => log.warn({ key, err: (error as Error).message }, "a deleted draft's file stayed in the file store until the sweep"));
  }
}

// Published: taking entries

/** A published competition that is open for taking part right now; 409 otherwise. */
export async function requireOpenCompetition(user: PublicUser | null, slug: string, now = new Date()): Promise<CompetitionRow> {
  const competition = await getVisibleCompetition(user, slug);
  checkOpen(competition, now);
  return competition;
}

/**
 * Why the competition does not take entries (teams, submissions) at `now`, or null when it does:
 * published, started and before its deadline. The one home of that rule: pages ask it, services
 * enforce it (checkOpen).
 */
export function closedForEntries(competition: Pick<CompetitionRow, "status" | "startsAt" | "endsAt">, now: Date): string | null {
  if (competition.status === "draft") return "this competition is not published yet";
  if (competition.status === "closed" || now >= competition.endsAt) return "this competition has closed";
  if (competition.startsAt && now < competition.startsAt) return `this competition opens on ${competition.startsAt.toISOString()}`;
  return null;
}

/** 409 unless the competition takes entries at `now` (closedForEntries). */
export function checkOpen(competition: CompetitionRow, now: Date): void {
  const problem = closedForEntries(competition, now);
  if (problem) throw new AppError("conflict", problem);
}
