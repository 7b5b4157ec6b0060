"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { callApi } from "../api-client";
import { ConfirmButton } from "../confirm-button";
import { TextAreaField } from "../field";
import { BUTTON } from "../tones";
import { CELL, DataTable } from "../data-table";
import { LocalTime } from "../local-time";

/**
 * One submission as the console shows it, formatted on the server: `scores` are the raw public and
 * holdout scores as text, `rank` orders by the holdout score (the page is for organizers only).
 */
export type ConsoleLine = {
  id: string;
  time: string;
  team: string;
  teamId: string;
  user: string;
  kind: string;
  answer: string;
  scores: [string, string];
  rank: number;
  note: string;
  flags: string[];
  disqualified: boolean;
};

/**
 * Every submission with its raw scores, filtered and sorted here; one team's submissions with a
 * summary (the drill-down: a team's name or the Team menu), where that team can be disqualified
 * (a dialog that names the team and asks why) or reinstated.
 */
export function SubmissionsConsole({ slug, rows }: { slug: string; rows: ConsoleLine[] }) {
  const router = useRouter();
  const [query, setQuery] = useState("");
  const [kind, setKind] = useState("all");
  const [team, setTeam] = useState("all");
  const [sort, setSort] = useState<"newest" | "rank">("newest");
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    const kept = rows.filter(
      (r) =>
        (kind === "all" || r.kind === kind) &&
        (team === "all" || r.teamId === team) &&
        (!q || r.team.toLowerCase().includes(q) || r.user.toLowerCase().includes(q) || r.note.toLowerCase().includes(q)),
    );
    return sort === "rank" ? [...kept].sort((a, b) => a.rank - b.rank) : kept;
  }, [rows, query, kind, team, sort]);
  const teams = useMemo(() => [...new Map(rows.map((r) => [r.teamId, r.team])).entries()].sort((a, b) => a[1].localeCompare(b[1])), [rows]);
  const drill = team === "all" ? null : rows.filter((r) => r.teamId === team);

  async function disqualify(teamId: string, reason: string | null): Promise<string | undefined> {
    const path = `/api/v1/competitions/${slug}/teams/${teamId}/disqualify`;
    const result = await callApi(path, reason === null ? { method: "DELETE" } : { method: "POST", json: { reason } });
    if (!result.ok) return result.error.message;
    router.refresh();
    return undefined;
  }

  if (rows.length === 0) return <p className="text-sm text-slate-500">No submissions yet.</p>;
  return (
    <div className="space-y-3 text-sm">
      <div className="flex flex-wrap items-end gap-3">
        <label className="min-w-0 max-w-full space-y-1">
          <span className="block font-medium text-slate-700">Filter</span>
          <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="team, user or note" className="rounded-md border border-slate-300 px-3 py-1.5" />
        </label>
        <label className="min-w-0 max-w-full space-y-1">
          <span className="block font-medium text-slate-700">Team</span>
          <select value={team} onChange={(e) => setTeam(e.target.value)} className="block max-w-full rounded-md border border-slate-300 px-2 py-1.5">
            <option value="all">all teams</option>
            {teams.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="min-w-0 max-w-full space-y-1">
          <span className="block font-medium text-slate-700">Answer</span>
          <select value={kind} onChange={(e) => setKind(e.target.value)} className="block max-w-full rounded-md border border-slate-300 px-2 py-1.5">
            <option value="all">all</option>
            <option value="public">public</option>
            <option value="holdout">holdout</option>
            <option value="exhausted">exhausted</option>
            <option value="late">late</option>
          </select>
        </label>
        <label className="min-w-0 max-w-full space-y-1">
          <span className="block font-medium text-slate-700">Sort by</span>
          <select value={sort} onChange={(e) => setSort(e.target.value as "newest" | "rank")} className="block max-w-full rounded-md border border-slate-300 px-2 py-1.5">
            <option value="newest">newest first</option>
            <option value="rank">best on the holdout first</option>
          </select>
        </label>
        <a
          href={`/api/v1/competitions/${slug}/submissions/all?format=csv${team === "all" ? "" : `&team=${team}`}`}
          className="rounded-md border border-slate-300 px-3 py-1.5 font-medium hover:bg-slate-100"
        >
          Export CSV
        </a>
      </div>
      {drill && drill.length > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-md bg-slate-100 p-3">
          <p role="status" data-testid="team-drill-down">
            <strong>{drill[0].team}</strong>: {drill.length} submission{drill.length === 1 ? "" : "s"} (
            {["public", "holdout", "exhausted", "late"].map((k) => `${drill.filter((r) => r.kind === k).length} ${k}`).join(", ")}), by{" "}
            {[...new Set(drill.map((r) => r.user))].join(", ")}; best on the holdout {[...drill].sort((a, b) => a.rank - b.rank)[0].scores[1]}.{" "}
            {drill[0].disqualified && <span className="font-medium text-red-800">Disqualified. </span>}
            <a href={`/competitions/${slug}/teams/${team}`} className="font-medium text-indigo-700 hover:underline">
              Team page
            </a>
          </p>
          {drill[0].disqualified ? (
            <ConfirmButton
              label={`Reinstate ${drill[0].team}`}
              look={BUTTON.secondary}
              title={`Reinstate team ${drill[0].team}?`}
              confirmLabel="Reinstate"
              action={() => disqualify(team, null)}
            >
              <p>The team returns to the live and final boards with the budget it has left.</p>
            </ConfirmButton>
          ) : (
            <ConfirmButton
              label={`Disqualify ${drill[0].team}…`}
              look={BUTTON.secondary}
              title={`Disqualify team ${drill[0].team}?`}
              confirmLabel={`Disqualify ${drill[0].team}`}
              confirmLook={BUTTON.danger}
              fields={<TextAreaField label="Reason (shown on the team's page)" name="reason" id="disqualify-reason" required minLength={3} rows={3} />}
              action={(form) => disqualify(team, String(form.get("reason") ?? ""))}
            >
              <p>
                Team <strong>{drill[0].team}</strong> ({[...new Set(drill.map((r) => r.user))].join(", ")}) leaves the live and final boards and cannot submit. Its budget is not
                restored. It can be reinstated later.
              </p>
            </ConfirmButton>
          )}
        </div>
      )}
      <DataTable
        caption="Every submission with its raw scores"
        maxHeight="max-h-[32rem]"
        testId="console"
        columns={[
          { label: "Time" },
          { label: "Team" },
          { label: "User" },
          { label: "Answer" },
          { label: "Public", numeric: true },
          { label: "Holdout", numeric: true },
          { label: "Note, flags" },
        ]}
      >
        {shown.map((r) => (
          <tr key={r.id} data-testid="console-row">
            <td className={`${CELL.list} whitespace-nowrap`}>
              <LocalTime at={r.time} />
            </td>
            <td className={`${CELL.list}`}>
              <button type="button" onClick={() => setTeam(r.teamId)} className="text-left font-medium text-indigo-700 hover:underline" aria-label={`Only team ${r.team}`}>
                {r.team}
              </button>
            </td>
            <td className={`${CELL.list}`}>{r.user}</td>
            <td className={`${CELL.list} whitespace-nowrap`}>
              {r.kind} {r.answer}
            </td>
            {r.scores.map((score, i) => (
              <td key={i} className={`${CELL.list} text-right font-mono tabular-nums`}>
                {score}
              </td>
            ))}
            <td className={`${CELL.list}`}>
              {r.note}
              {r.flags.map((flag) => (
                <span key={flag} className="ml-1 rounded bg-amber-50 px-1.5 py-0.5 text-xs text-amber-800">
                  {flag}
                </span>
              ))}
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
