import "server-only";
import { presentAnswer } from "./answer";
import type { PublicUser } from "@/lib/server/accounts/users";
import { finalSubmissionIds } from "@/lib/server/closing/finals";
import { getVisibleCompetition, metricOf } from "@/lib/server/competitions/competitions";
import { displayBound, getScoreBounds } from "@/lib/server/competitions/plans";
import { transcriptPlaces } from "@/lib/calibration/score-bounds";
import { db, lockTeam } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import type { MySubmission } from "@/lib/responses";
import { isUuid } from "@/lib/validation/ids";
import type { FinalSelectionInput } from "@/lib/validation/teams";

/** Submissions a team may select for the final standings. */
const MAX_FINAL = 2;

/**
 * The caller's team's submissions, newest first (late ones, after the close, first): the answers and
 * the team's own public scores, never holdout values (docs/mechanism.md §2.2), each released score
 * with its bound, from its place in the team's transcript (§2.8).
 */
export async function listMySubmissions(user: PublicUser, slug: string): Promise<{ submissions: MySubmission[]; finalIds: string[] }> {
  const competition = await getVisibleCompetition(user, slug);
  const metric = metricOf(competition);
  const member = await db.teamMember.findUnique({
    where: { competitionId_userId: { competitionId: competition.id, userId: user.id } },
    select: { teamId: true, team: { select: { initialBudget: true } } },
  });
  if (!member) return { submissions: [], finalIds: [] };
  // Each submission's private (holdout) score is the team's once the competition has closed, as on
  // Kaggle; before, it is never read for a competitor (docs/mechanism.md §2.2).
  const closed = competition.status === "closed";
  const rows = await db.submission.findMany({
    where: { teamId: member.teamId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      createdAt: true,
      kind: true,
      answer: true,
      publicValue: true,
      holdoutValue: closed,
      budgetAfter: true,
      selected: true,
      description: true,
      filename: true,
      user: { select: { name: true } },
    },
  });
  const bounds = await getScoreBounds(competition);
  const places = transcriptPlaces(rows.map((s) => s.kind).reverse()).reverse();
  const submissions = rows.map((s, k) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    by: s.user.name,
    answer: presentAnswer(metric, competition.displayPrecision, {
      kind: s.kind,
      answer: s.answer,
      publicValue: s.publicValue,
      bound: displayBound(bounds, metric, { kind: s.kind, value: s.answer, ...places[k], budget: member.team.initialBudget }),
    }),
    ...(closed ? { privateScore: metric.toDisplay(s.holdoutValue!) } : {}),
    budget: { remaining: s.budgetAfter, initial: member.team.initialBudget },
    selected: s.selected,
    description: s.description,
    filename: s.filename,
  }));
  const late = await db.unrankedSubmission.findMany({
    where: { teamId: member.teamId, kind: "late" },
    orderBy: { createdAt: "desc" },
    select: { id: true, createdAt: true, holdoutValue: true, publicValue: true, description: true, filename: true, user: { select: { name: true } } },
  });
  const budget = { remaining: rows[0]?.budgetAfter ?? member.team.initialBudget, initial: member.team.initialBudget };
  const lateRows = late.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    by: s.user.name,
    answer: presentAnswer(metric, competition.displayPrecision, { kind: "late", answer: s.holdoutValue, publicValue: s.publicValue }),
    privateScore: metric.toDisplay(s.holdoutValue),
    budget,
    selected: false,
    description: s.description,
    filename: s.filename,
  }));
  return { submissions: [...lateRows, ...submissions], finalIds: finalSubmissionIds(metric, rows) };
}

/** Selects or unselects a submission for the final standings (at most 2 per team). */
export async function selectFinal(user: PublicUser, slug: string, submissionId: string, { selected }: FinalSelectionInput): Promise<{ id: string; selected: boolean }> {
  const competition = await getVisibleCompetition(user, slug);
  if (competition.status === "closed") throw new AppError("conflict", "the competition has closed; the final selection is locked");
  if (!isUuid(submissionId)) throw new AppError("not_found", "no such submission in your team");
  const member = await db.teamMember.findUnique({ where: { competitionId_userId: { competitionId: competition.id, userId: user.id } }, select: { teamId: true } });
  const submission = await db.submission.findFirst({ where: { id: submissionId, teamId: member?.teamId ?? "00000000-0000-0000-0000-000000000000" }, select: { id: true } });
  if (!member || !submission) throw new AppError("not_found", "no such submission in your team");
  await db.$transaction(async (tx) => {
    await lockTeam(tx, member.teamId);
    if (selected) {
      const count = await tx.submission.count({ where: { teamId: member.teamId, selected: true, id: { not: submissionId } } });
      if (count >= MAX_FINAL) throw new AppError("conflict", `at most ${MAX_FINAL} submissions can be selected; unselect one first`);
    }
    await tx.submission.update({ where: { id: submissionId }, data: { selected } });
  });
  return { id: submissionId, selected };
}
