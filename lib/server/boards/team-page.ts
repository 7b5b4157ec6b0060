import "server-only";
import { getLeaderboard, scoreUncertainty } from "./leaderboard";
import { getVisibleCompetition, metricOf } from "@/lib/server/competitions/competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { isUuid } from "@/lib/validation/ids";
import type { TeamHistory } from "@/lib/responses";

/** A team's public page: members, and its answers and budget over time. */
export async function getTeamHistory(viewer: PublicUser | null, slug: string, teamId: string): Promise<TeamHistory> {
  const competition = await getVisibleCompetition(viewer, slug);
  const metric = metricOf(competition);
  if (!isUuid(teamId)) throw new AppError("not_found", "no such team in this competition");
  const team = await db.team.findFirst({
    where: { id: teamId, competitionId: competition.id },
    select: {
      id: true,
      name: true,
      budgetRemaining: true,
      initialBudget: true,
      mergedIntoId: true,
      disqualifiedAt: true,
      disqualifyReason: true,
      members: { select: { user: { select: { name: true } } } },
    },
  });
  if (!team) throw new AppError("not_found", "no such team in this competition");
  if (team.mergedIntoId) throw new AppError("not_found", "this team was merged into another");
  const [subs, board] = await Promise.all([
    db.submission.findMany({ where: { teamId: team.id }, orderBy: { createdAt: "asc" }, select: { createdAt: true, kind: true, answer: true, budgetAfter: true } }),
    getLeaderboard(viewer, slug, { q: team.name, pageSize: 50 }),
  ]);
  const entry = board.entries.find((e) => e.teamId === team.id);
  return {
    team: {
      id: team.id,
      name: team.name,
      members: team.members.map((m) => m.user.name),
      budget: { remaining: team.budgetRemaining, initial: team.initialBudget },
      rank: entry?.rank ?? null,
      score: entry?.score ?? null,
      kind: entry?.kind ?? null,
      disqualified: team.disqualifiedAt ? { at: team.disqualifiedAt.toISOString(), reason: team.disqualifyReason ?? "" } : null,
    },
    metric: { name: metric.name, title: metric.title, direction: metric.direction },
    displayPrecision: competition.displayPrecision,
    uncertainty: await scoreUncertainty(competition, metric),
    history: subs.map((s) => ({ at: s.createdAt.toISOString(), kind: s.kind, score: s.answer === null ? null : metric.toDisplay(s.answer), budget: s.budgetAfter })),
  };
}
