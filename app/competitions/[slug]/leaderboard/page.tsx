import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { AppError } from "@/lib/server/platform/errors";
import { getFinalStandings } from "@/lib/server/boards/finals";
import { getLateBoard } from "@/lib/server/boards/late-board";
import { getLeaderboard } from "@/lib/server/boards/leaderboard";
import { LiveLeaderboard } from "../../../_components/view/live-leaderboard";
import { ColumnHeads } from "../../../_components/column-heads";

export const metadata: Metadata = { title: "Leaderboard" };

export default async function LeaderboardPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const viewer = await getSessionUser();
  let board;
  try {
    board = await getLeaderboard(viewer, slug, { pageSize: 50 });
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
  const final = await getFinalStandings(viewer, slug).catch((error) => (error instanceof AppError && error.status === 409 ? null : Promise.reject(error)));
  const late = final ? await getLateBoard(viewer, slug) : null;
  return (
    <div className="space-y-8">
      <div>
        <p className="text-sm">
          <Link href={`/competitions/${slug}`} className="text-indigo-700 hover:underline">
            ← Competition
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight">Leaderboard</h1>
        <p className="max-w-3xl text-sm text-slate-600">
          Scores are released through Thresholdout: a team sees its public score while it agrees with the hidden holdout, and a noisy holdout score — spending one unit of its
          overfitting budget — when it does not. So these scores stay honest estimates of performance on new data.
        </p>
      </div>
      {final && (
        <section aria-labelledby="final-heading" className="space-y-3">
          <h2 id="final-heading" className="text-xl font-semibold">
            Final standings
          </h2>
          <p className="text-sm text-slate-600">Each team&apos;s final submissions scored exactly on the holdout; the shake-up is the change from its live rank.</p>
          <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table className="w-full text-left text-sm" data-testid="final-standings">
              <caption className="sr-only">Final standings with the change against the live leaderboard</caption>
              <ColumnHeads
                className="bg-slate-50 text-slate-600"
                cell="px-3 py-2"
                columns={[
                  { label: "#", numeric: true },
                  { label: "Team" },
                  { label: "Holdout score", numeric: true },
                  { label: "Live rank", numeric: true },
                  { label: "Shake-up" },
                ]}
              />
              <tbody className="divide-y divide-slate-100">
                {final.entries.map((e) => (
                  <tr key={e.teamId}>
                    <td className="px-3 py-2 text-right tabular-nums">{e.rank}</td>
                    <td className="px-3 py-2 font-medium">
                      <Link href={`/competitions/${slug}/teams/${e.teamId}`} className="hover:underline">
                        {e.team}
                      </Link>
                    </td>
                    <td className="px-3 py-2 text-right font-mono tabular-nums">{e.score.toFixed(final.displayPrecision)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{e.liveRank ?? "—"}</td>
                    <td className="px-3 py-2">
                      {e.shakeUp === null || e.shakeUp === 0 ? (
                        <span className="text-slate-500">–</span>
                      ) : e.shakeUp > 0 ? (
                        <span className="text-emerald-700">
                          ▲ {e.shakeUp} <span className="sr-only">places up</span>
                        </span>
                      ) : (
                        <span className="text-red-700">
                          ▼ {-e.shakeUp} <span className="sr-only">places down</span>
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      {late && (late.lateSubmissions || late.entries.length > 0) && (
        <section aria-labelledby="late-heading" className="space-y-3">
          <h2 id="late-heading" className="text-xl font-semibold">
            Late submissions
          </h2>
          <p className="text-sm text-slate-600">After the close, each team&apos;s best late submission scored exactly on the holdout. They never change the final standings.</p>
          {late.entries.length === 0 ? (
            <p className="text-sm text-slate-500">No late submissions yet.</p>
          ) : (
            <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
              <table className="w-full text-left text-sm" data-testid="late-board">
                <caption className="sr-only">Late board: best exact holdout score of each team&apos;s late submissions</caption>
                <ColumnHeads
                  className="bg-slate-50 text-slate-600"
                  cell="px-3 py-2"
                  columns={[{ label: "#", numeric: true }, { label: "Team" }, { label: "Holdout score", numeric: true }, { label: "Late entries", numeric: true }]}
                />
                <tbody className="divide-y divide-slate-100">
                  {late.entries.map((e) => (
                    <tr key={e.teamId}>
                      <td className="px-3 py-2 text-right tabular-nums">{e.rank}</td>
                      <td className="px-3 py-2 font-medium">{e.team}</td>
                      <td className="px-3 py-2 text-right font-mono tabular-nums">{e.score.toFixed(late.displayPrecision)}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{e.submissions}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}
      <section aria-labelledby="live-heading" className="space-y-3">
        <h2 id="live-heading" className="text-xl font-semibold">
          {final ? "Live leaderboard at the close" : "Live leaderboard"}
        </h2>
        <LiveLeaderboard slug={slug} initial={board} />
      </section>
    </div>
  );
}
