"use client";

import { callApi } from "../api-client";
import { LocalTime } from "../local-time";
import Link from "../link";
import { useEffect, useRef, useState } from "react";
import { BudgetBar } from "../budget-bar";
import type { Leaderboard } from "@/lib/responses";
import { CELL, DataTable, hiddenBelow, MINE, YourTeam } from "../data-table";

const PAGE_SIZE = 50;
const REFRESH_MS = 10_000;

/**
 * The live leaderboard: search by team, pages of 50, refreshed every 10 s without a reload while
 * the competition runs (`live`; and at once when the tab becomes visible again). Ranks are overall
 * ranks, also when searching. The viewer's own team is marked.
 */
export function LiveLeaderboard({ slug, initial, live, myTeamId }: { slug: string; initial: Leaderboard; live: boolean; myTeamId: string | null }) {
  const [board, setBoard] = useState(initial);
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  const [error, setError] = useState<string>();
  const request = useRef(0);
  const mounted = useRef(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const load = async () => {
      const id = ++request.current;
      try {
        const params = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE), ...(q ? { q } : {}) });
        const answer = await callApi<Leaderboard>(`/api/v1/competitions/${slug}/leaderboard?${params}`, { method: "GET", cache: "no-store" });
        if (!answer.ok) throw new Error(answer.error.message.replace(/\.$/, ""));
        const next = answer.data;
        if (id === request.current) {
          setBoard(next);
          setUpdatedAt(new Date());
          setError(undefined);
        }
      } catch (e) {
        if (id === request.current) setError(`Could not refresh the leaderboard (${(e as Error).message}); retrying.`);
      }
      if (live) timer = setTimeout(load, REFRESH_MS);
    };
    // The server rendered the first page already: wait a full period then (a closed board never
    // changes). Any change of search or page loads at once (debounced for typing).
    if (mounted.current || live) timer = setTimeout(load, mounted.current ? 250 : REFRESH_MS);
    mounted.current = true;
    const onVisible = () => live && document.visibilityState === "visible" && (clearTimeout(timer), load());
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [slug, q, page, live]);

  const pages = Math.max(1, Math.ceil(board.total / PAGE_SIZE));
  const arrow = board.metric.direction === "higher" ? "higher is better" : "lower is better";
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <label className="block text-sm sm:w-72">
          <span className="font-medium text-slate-700">Search teams</span>
          <input
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(1);
            }}
            placeholder="Team name"
            className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </label>
        <div className="flex items-center gap-3 text-sm">
          <a href={`/api/v1/competitions/${slug}/leaderboard?format=csv`} className="font-medium text-indigo-700 hover:underline">
            Download CSV
          </a>
          <a href={`/api/v1/competitions/${slug}/leaderboard`} className="font-medium text-indigo-700 hover:underline">
            JSON
          </a>
        </div>
      </div>
      <p className="text-xs text-slate-500" aria-live="polite">
        {board.total.toLocaleString("en")} team{board.total === 1 ? "" : "s"} · {board.metric.title}, {arrow} ·{" "}
        {!live ? "as it stood at the close" : updatedAt ? `updated ${updatedAt.toLocaleTimeString("en-GB")}` : "live: refreshes every 10 seconds"}
      </p>
      {error && (
        <p role="alert" className="text-sm text-amber-700">
          {error}
        </p>
      )}
      <DataTable
        caption="Live leaderboard, ranked by each team's best public score checked against the hidden holdout"
        look="board"
        testId="leaderboard"
        columns={[
          { label: "#", numeric: true },
          { label: "Team" },
          { label: "Score", numeric: true },
          { label: "Entries", numeric: true, from: "sm" },
          { label: "Last", from: "md" },
          { label: "Overfitting budget" },
        ]}
      >
        {withBaselines(board, page === pages && !q).map(({ e, i, baseline }) =>
          baseline ? (
            <tr key={`baseline-${baseline.name}`} data-testid="baseline-row" className="bg-slate-50 italic text-slate-600">
              <td className={`${CELL.board} text-right`}>–</td>
              <td className={`${CELL.board}`}>
                {baseline.name} <span className="ml-1 rounded bg-slate-200 px-1.5 py-0.5 text-xs not-italic">baseline</span>
              </td>
              <td className={`${CELL.board} text-right font-mono tabular-nums whitespace-nowrap`}>
                <ScoreCell score={baseline.score} kind={baseline.kind} bound={null} decimals={baseline.decimals} />
              </td>
              <td colSpan={3} className={`${CELL.board} text-xs`}>
                set by the organizers, not ranked
              </td>
            </tr>
          ) : (
            <tr key={e.teamId} data-testid="leaderboard-row" className={e.teamId === myTeamId ? MINE : undefined}>
              <td className={`${CELL.board} text-right tabular-nums whitespace-nowrap`}>
                {tiedWithAbove(board, i) && (
                  <span title="Tied with the team above: their intervals overlap, so no proof tells which is better" className="mr-1 text-slate-500">
                    ≈
                  </span>
                )}
                {e.rank}
              </td>
              <td className={`${CELL.board} font-medium break-words`}>
                <Link href={`/competitions/${slug}/teams/${e.teamId}`} className="hover:underline">
                  {e.team}
                </Link>
                {e.teamId === myTeamId && <YourTeam />}
              </td>
              <td className={`${CELL.board} text-right font-mono tabular-nums whitespace-nowrap`}>
                <ScoreCell score={e.score} kind={e.kind} bound={e.bound} decimals={e.decimals} />
              </td>
              <td className={`${CELL.board} ${hiddenBelow("sm")} text-right tabular-nums`}>{e.submissions}</td>
              <td className={`${CELL.board} ${hiddenBelow("md")} whitespace-nowrap text-slate-600`}>{e.lastSubmissionAt ? <LocalTime at={e.lastSubmissionAt} /> : "—"}</td>
              <td className={`${CELL.board}`}>
                <BudgetBar remaining={e.budget.remaining} initial={e.budget.initial} narrow />
              </td>
            </tr>
          ),
        )}
        {board.entries.length === 0 && (
          <tr>
            <td colSpan={6} className="px-3 py-6 text-center text-slate-500">
              {q ? `No team matches “${q}”.` : "No submissions yet."}
            </td>
          </tr>
        )}
      </DataTable>
      <p className="text-xs text-slate-500">
        Each score is the team&apos;s best public score, checked against the hidden holdout; a team with no checked public score shows its latest holdout score, marked
        &ldquo;holdout&rdquo;. The ± is what the platform can prove: with 95 % probability, every score a team is shown lies within its ± of the score the same submission would get
        on unlimited new data, however the team chose its submissions. ≈ marks a team whose interval overlaps the one above: no proof tells which of the two is better.
      </p>
      {pages > 1 && (
        <nav aria-label="Leaderboard pages" className="flex items-center justify-between text-sm">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)} className="rounded-md border border-slate-300 px-3 py-1.5 disabled:opacity-40">
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)} className="rounded-md border border-slate-300 px-3 py-1.5 disabled:opacity-40">
            Next
          </button>
        </nav>
      )}
    </div>
  );
}

/** True when entry i's interval (score ± bound) overlaps the one of the entry ranked just above it (same page). */
function tiedWithAbove(board: Leaderboard, i: number): boolean {
  const [above, entry] = [board.entries[i - 1], board.entries[i]];
  if (!above || above.rank !== entry.rank - 1 || above.score === null || entry.score === null || above.bound === null || entry.bound === null) return false;
  return Math.abs(above.score - entry.score) <= above.bound + entry.bound;
}

type Row = { e: Leaderboard["entries"][number]; i: number; baseline?: undefined } | { e?: undefined; i?: undefined; baseline: Leaderboard["baselines"][number] };

/**
 * The page's team rows with the organizers' baselines placed where their scores fall (unranked):
 * before the first team of this page they beat, the rest after the last team on the last page.
 */
function withBaselines(board: Leaderboard, lastPage: boolean): Row[] {
  const beats = (a: number, b: number) => (board.metric.direction === "higher" ? a > b : a < b);
  const left = [...board.baselines].sort((a, b) => (beats(a.score, b.score) ? -1 : 1));
  const rows: Row[] = [];
  board.entries.forEach((e, i) => {
    while (left.length && e.score !== null && beats(left[0].score, e.score) && (board.page === 1 || i > 0)) rows.push({ baseline: left.shift()! });
    if (board.page > 1 && i === 0) while (left.length && e.score !== null && beats(left[0].score, e.score)) left.shift();
    rows.push({ e, i });
  });
  if (lastPage) rows.push(...left.map((baseline) => ({ baseline })));
  return rows;
}

/** A shown score to the decimals its bound supports, with its ± and, for a holdout answer, a marker saying so. */
function ScoreCell({ score, kind, bound, decimals }: { score: number | null; kind: "public" | "holdout" | null; bound: number | null; decimals: number }) {
  if (score === null) return <>—</>;
  return (
    <>
      {score.toFixed(decimals)}
      {bound !== null && <span className="block text-xs text-slate-600 sm:ml-1 sm:inline">± {bound.toFixed(decimals)}</span>}
      {kind === "holdout" && (
        <span className="rounded bg-amber-50 px-1 text-xs text-amber-800 sm:ml-1" title="No checked public score yet: the team's latest holdout score, with noise">
          holdout
        </span>
      )}
    </>
  );
}
