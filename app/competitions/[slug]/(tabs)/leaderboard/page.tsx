import Link from "../../../../_components/link";
import { AppError } from "@/lib/server/platform/errors";
import { getFinalStandings } from "@/lib/server/closing/finals";
import { getLateBoard } from "@/lib/server/boards/late-board";
import { getLeaderboard } from "@/lib/server/boards/leaderboard";
import { LiveLeaderboard } from "../../../../_components/view/live-leaderboard";
import { CELL, DataTable } from "../../../../_components/data-table";
import { Section } from "../../../../_components/section";
import { scoreText } from "@/lib/metrics/display";
import type { FinalStandings } from "@/lib/responses";
import { loadCompetition, tabMetadata } from "../competition";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => tabMetadata(params, "Leaderboard");

/** The Leaderboard tab: the final standings and the late board once closed, and the live board (the viewer's team marked). */
export default async function LeaderboardPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { viewer, competition, team } = await loadCompetition(slug);
  const board = await getLeaderboard(viewer, slug, { pageSize: 50 });
  const final = await getFinalStandings(viewer, slug).catch((error) => (error instanceof AppError && error.status === 409 ? null : Promise.reject(error)));
  const late = final ? await getLateBoard(viewer, slug) : null;
  return (
    <div className="space-y-8">
      <div>
        <p className="max-w-3xl text-sm text-slate-600">
          Scores are released through Thresholdout: a team sees its public score while it agrees with the hidden holdout, and a noisy holdout score — spending one unit of its
          overfitting budget — when it does not. So these scores stay honest estimates of performance on new data.
        </p>
      </div>
      {final && (
        <Section id="final" title="Final standings" variant="plain">
          <p className="text-sm text-slate-600">
            Each team&apos;s final submissions scored exactly on the holdout; the shake-up is the change from its live rank. The ± holds whatever the teams learned from the board:
            with 95 % probability every final score lies within its ± of the score the submission would get on unlimited new data. Teams whose intervals overlap are tied (≈): no
            proof tells their order apart, and their ranks are listed as a range.
          </p>
          <DataTable
            caption="Final standings with their bounds, ties and the change against the live leaderboard"
            look="board"
            testId="final-standings"
            columns={[{ label: "#", numeric: true }, { label: "Team" }, { label: "Holdout score", numeric: true }, { label: "Live rank", numeric: true }, { label: "Shake-up" }]}
          >
            {final.entries.map((e) => (
              <tr key={e.teamId}>
                <td className={`${CELL.board} text-right tabular-nums whitespace-nowrap`}>{rankRange(final.entries, e)}</td>
                <td className={`${CELL.board} font-medium`}>
                  <Link href={`/competitions/${slug}/teams/${e.teamId}`} className="hover:underline">
                    {e.team}
                  </Link>
                  {e.tiedWith.length > 0 && (
                    <span className="block text-xs font-normal text-slate-600">tied with {e.tiedWith.length === 1 ? "1 team" : `${e.tiedWith.length} teams`}</span>
                  )}
                </td>
                <td className={`${CELL.board} text-right font-mono tabular-nums whitespace-nowrap`} data-testid="final-score">
                  {scoreText(e.score, e.bound, e.decimals)}
                </td>
                <td className={`${CELL.board} text-right tabular-nums`}>{e.liveRank ?? "—"}</td>
                <td className={`${CELL.board}`}>
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
          </DataTable>
        </Section>
      )}
      {late && (late.lateSubmissions || late.entries.length > 0) && (
        <Section id="late" title="Late submissions" variant="plain">
          <p className="text-sm text-slate-600">
            After the close, each team&apos;s best late submission scored exactly on the holdout. They never change the final standings, and the live competition&apos;s promises
            (the ± on the live board) do not cover them: the holdout no longer protects exact scores read after the close.
          </p>
          {late.entries.length === 0 ? (
            <p className="text-sm text-slate-500">No late submissions yet.</p>
          ) : (
            <DataTable
              caption="Late board: best exact holdout score of each team's late submissions"
              look="board"
              testId="late-board"
              columns={[{ label: "#", numeric: true }, { label: "Team" }, { label: "Holdout score", numeric: true }, { label: "Late entries", numeric: true }]}
            >
              {late.entries.map((e) => (
                <tr key={e.teamId}>
                  <td className={`${CELL.board} text-right tabular-nums`}>{e.rank}</td>
                  <td className={`${CELL.board} font-medium`}>{e.team}</td>
                  <td className={`${CELL.board} text-right font-mono tabular-nums`}>{scoreText(e.score, null, late.displayPrecision)}</td>
                  <td className={`${CELL.board} text-right tabular-nums`}>{e.submissions}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </Section>
      )}
      <Section id="live" title={final ? "Live leaderboard at the close" : "Live leaderboard"} variant="plain">
        <LiveLeaderboard slug={slug} initial={board} live={competition.status === "published"} myTeamId={team?.id ?? null} />
      </Section>
    </div>
  );
}

/** A rank as the standings can prove it: "1" alone, or "≈ 1–3" over the ranks of the teams it is tied with. */
function rankRange(entries: FinalStandings["entries"], entry: FinalStandings["entries"][number]): string {
  if (entry.tiedWith.length === 0) return String(entry.rank);
  const ranks = [entry.rank, ...entries.filter((e) => entry.tiedWith.includes(e.teamId)).map((e) => e.rank)];
  return `≈ ${Math.min(...ranks)}–${Math.max(...ranks)}`;
}
