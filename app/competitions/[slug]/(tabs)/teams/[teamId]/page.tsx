import type { Metadata } from "next";
import Link from "../../../../../_components/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { AppError } from "@/lib/server/platform/errors";
import { getTeamHistory } from "@/lib/server/boards/team-page";
import { BudgetBar } from "../../../../../_components/budget-bar";
import { HistoryChart } from "../../../../../_components/charts";
import { scoreText } from "@/lib/metrics/display";
import { significant } from "@/lib/format";
import { Section } from "../../../../../_components/section";
import { loadCompetition } from "../../competition";

type Params = Promise<{ slug: string; teamId: string }>;

/** The team's history, read once per request (the title and the page share it). */
const loadTeam = cache(async (slug: string, teamId: string) => {
  try {
    return await getTeamHistory(await getSessionUser(), slug, teamId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { slug, teamId } = await params;
  const [{ competition }, { team }] = await Promise.all([loadCompetition(slug), loadTeam(slug, teamId)]);
  return { title: `${team.name} · ${competition.title}` };
}

export default async function TeamPage({ params }: { params: Params }) {
  const { slug, teamId } = await params;
  const { team, history, metric } = await loadTeam(slug, teamId);
  const holdout = history.filter((h) => h.kind === "holdout").length;
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href={`/competitions/${slug}/leaderboard`} className="text-indigo-700 hover:underline">
          ← Leaderboard
        </Link>
      </p>
      {team.disqualified && (
        <p role="note" data-testid="disqualified" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          This team was disqualified by the organizers: {team.disqualified.reason}
        </p>
      )}
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h2 className="break-words text-xl font-semibold tracking-tight">{team.name}</h2>
          <p className="text-slate-600">{team.members.join(", ")}</p>
        </div>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:flex sm:gap-6">
          {team.finalRank !== null ? (
            <div>
              <dt className="text-slate-600">Final rank</dt>
              <dd className="text-lg font-semibold" data-testid="final-rank">
                {team.finalRank}
                {team.rank !== null && <span className="ml-1 text-sm font-normal text-slate-600">(live {team.rank})</span>}
              </dd>
            </div>
          ) : (
            <div>
              <dt className="text-slate-600">Rank</dt>
              <dd className="text-lg font-semibold">{team.rank ?? "—"}</dd>
            </div>
          )}
          <div>
            <dt className="text-slate-600">Leaderboard score</dt>
            <dd className="text-lg font-semibold tabular-nums">
              {scoreText(team.score, team.bound, team.decimals)}
              {team.kind === "holdout" && <span className="ml-1 text-sm font-normal text-slate-600">(holdout score)</span>}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Submissions</dt>
            <dd className="text-lg font-semibold">{history.length}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Overfitting budget</dt>
            <dd className="pt-1.5">
              <BudgetBar remaining={team.budget.remaining} initial={team.budget.initial} />
            </dd>
          </div>
        </dl>
      </header>
      <Section id="history" title="Score history">
        <p className="text-sm text-slate-600">
          {metric.title} of each released answer over time; {holdout} of {history.length} were checked on the holdout and used one unit of budget. Public answers are exact scores
          on the public rows, checked against the hidden holdout; holdout answers carry noise. Each carries the ± the platform proves for it (at the leaderboard score, ±{" "}
          {significant(team.bound, 2)}): with 95 % probability every score the team is shown is within its ± of its true score. The leaderboard shows the team&apos;s best public
          answer, or without one its latest holdout answer.
        </p>
        <HistoryChart
          points={history}
          initialBudget={team.budget.initial}
          precision={(team.bound !== null ? team : (history.find((h) => h.bound !== null) ?? team)).decimals}
          boardScore={team.score}
        />
      </Section>
    </div>
  );
}
