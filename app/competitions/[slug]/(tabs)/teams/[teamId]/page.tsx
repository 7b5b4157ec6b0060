import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { AppError } from "@/lib/server/platform/errors";
import { getTeamHistory } from "@/lib/server/boards/team-page";
import { BudgetBar } from "../../../../_components/budget-bar";
import { HistoryChart } from "../../../../_components/charts";
import { significant } from "../../../../_components/format";
import { Section } from "../../../../_components/section";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage({ params }: { params: Promise<{ slug: string; teamId: string }> }) {
  const { slug, teamId } = await params;
  let data;
  try {
    data = await getTeamHistory(await getSessionUser(), slug, teamId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
  const { team, history, displayPrecision, metric, uncertainty } = data;
  const pm = uncertainty === null ? "" : ` ± ${significant(uncertainty, 2)}`;
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
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{team.name}</h1>
          <p className="text-slate-600">{team.members.join(", ")}</p>
        </div>
        <dl className="flex gap-6 text-sm">
          <div>
            <dt className="text-slate-500">Rank</dt>
            <dd className="text-lg font-semibold">{team.rank ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Leaderboard score</dt>
            <dd className="text-lg font-semibold tabular-nums">
              {team.score === null ? "—" : team.score.toFixed(displayPrecision)}
              {team.score !== null && <span className="ml-1 text-sm font-normal text-slate-500">{pm}</span>}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Submissions</dt>
            <dd className="text-lg font-semibold">{history.length}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Budget</dt>
            <dd className="pt-1.5">
              <BudgetBar remaining={team.budget.remaining} initial={team.budget.initial} />
            </dd>
          </div>
        </dl>
      </header>
      <Section id="history" title="Score history">
        <p className="text-sm text-slate-600">
          {metric.title} of each released answer over time; {holdout} of {history.length} answers came from the holdout and spent budget. Holdout answers carry noise (
          {pm.trim() || "±"}, 95 %); public answers are exact scores on the public rows. The leaderboard score is a separate, fresh measurement of the team&apos;s best submission.
        </p>
        <HistoryChart points={history} initialBudget={team.budget.initial} precision={displayPrecision} />
      </Section>
    </div>
  );
}
