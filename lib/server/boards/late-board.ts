import "server-only";
import { getVisibleCompetition, metricOf } from "@/lib/server/competitions/competitions";
import type { PublicUser } from "@/lib/server/accounts/users";
import { db } from "@/lib/server/platform/db";
import { isBetter } from "@/lib/metrics/registry";
import type { LateBoard } from "@/lib/responses";

/**
 * The late board (competitions with late submissions, after the close): each team's best exact
 * holdout score among its late submissions, ranked apart from the final standings, which it never
 * changes. Ties go to the team whose late submissions ended earlier.
 */
export async function getLateBoard(viewer: PublicUser | null, slug: string): Promise<LateBoard> {
  const competition = await getVisibleCompetition(viewer, slug);
  const metric = metricOf(competition);
  const groups = await db.unrankedSubmission.groupBy({
    by: ["teamId"],
    where: { competitionId: competition.id, kind: "late", team: { disqualifiedAt: null } },
    _max: { holdoutValue: true, createdAt: true },
    _min: { holdoutValue: true },
    _count: { _all: true },
  });
  const names = new Map((await db.team.findMany({ where: { id: { in: groups.map((g) => g.teamId!) } }, select: { id: true, name: true } })).map((t) => [t.id, t.name]));
  const best = (g: (typeof groups)[number]) => (metric.direction === "higher" ? g._max.holdoutValue! : g._min.holdoutValue!);
  const sorted = groups.sort((a, b) =>
    isBetter(metric, best(a), best(b)) ? -1 : isBetter(metric, best(b), best(a)) ? 1 : a._max.createdAt!.getTime() - b._max.createdAt!.getTime(),
  );
  return {
    metric: { name: metric.name, title: metric.title, direction: metric.direction },
    displayPrecision: competition.displayPrecision,
    lateSubmissions: competition.lateSubmissions,
    entries: sorted.map((g, i) => ({
      rank: i + 1,
      team: names.get(g.teamId!)!,
      teamId: g.teamId!,
      score: metric.toDisplay(best(g)),
      submissions: g._count._all,
      lastSubmissionAt: g._max.createdAt!.toISOString(),
    })),
  };
}
