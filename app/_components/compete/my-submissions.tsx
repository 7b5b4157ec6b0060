"use client";

import { useRouter } from "next/navigation";
import { startTransition, useOptimistic, useState } from "react";
import { callApi } from "../api-client";
import { CELL, DataTable, hiddenBelow } from "../data-table";
import type { MySubmission } from "@/lib/responses";
import { scoreText } from "@/lib/metrics/display";
import { ANSWER_KIND } from "./answer-text";
import { LocalTime } from "../local-time";

const TIME = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * The team's submissions with their answers and the final selection (up to 2; default: best). A
 * checked score shows with its ± (the bound the mechanism proves, docs/mechanism.md §2.8) and to the
 * decimals it supports; a public score that was not checked shows without one.
 */
export function MySubmissions({ slug, submissions, finalIds, locked }: { slug: string; submissions: MySubmission[]; finalIds: string[]; locked: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [shown, setShown] = useOptimistic(submissions, (rows, change: { id: string; selected: boolean }) =>
    rows.map((s) => (s.id === change.id ? { ...s, selected: change.selected } : s)),
  );
  const explicit = shown.some((s) => s.selected);
  // Once the competition has closed, each submission's private (holdout) score, as Kaggle shows it.
  const revealed = shown.some((s) => s.privateScore !== undefined);

  function toggle(id: string, selected: boolean) {
    startTransition(async () => {
      setShown({ id, selected });
      const result = await callApi(`/api/v1/competitions/${slug}/submissions/${id}/final`, { method: "PUT", json: { selected } });
      setError(result.ok ? undefined : result.error.message);
      router.refresh();
    });
  }

  if (submissions.length === 0) return <p className="text-sm text-slate-500">No submissions yet.</p>;
  return (
    <div className="space-y-2">
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {revealed && (
        <p className="text-sm text-slate-600">
          The competition has closed: each submission&apos;s private score is its exact score on the hidden holdout rows, which decides the final standings.
        </p>
      )}
      <p className="text-sm text-slate-600">
        {explicit
          ? "Your selected submissions count for the final standings."
          : "Until you select up to two, the submission the leaderboard shows for your team (your best checked public score) counts for the final standings."}
      </p>
      <DataTable
        caption="Your team's submissions"
        columns={[
          { label: "Submitted" },
          { label: "By", from: "sm" },
          { label: "Your public score", numeric: true },
          ...(revealed ? [{ label: "Private score", numeric: true }] : []),
          { label: "Answer" },
          { label: "Holdout checks left", numeric: true, from: "md" },
          { label: "Final" },
        ]}
      >
        {shown.map((s) => (
          <tr key={s.id} data-testid="submission-row">
            <td className={`${CELL.list}`}>
              <span className="sm:whitespace-nowrap">
                <LocalTime at={s.createdAt} />
              </span>
              {s.description && (
                <span className="block text-xs text-slate-600" data-testid="submission-description">
                  {s.description}
                </span>
              )}
              {s.filename && (
                <a
                  href={`/api/v1/competitions/${slug}/submissions/${s.id}/file`}
                  className="block break-all text-xs font-medium text-indigo-700 hover:underline"
                  aria-label={`Download ${s.filename} (${TIME.format(new Date(s.createdAt))})`}
                >
                  {s.filename}
                </a>
              )}
            </td>
            <td className={`${CELL.list} ${hiddenBelow("sm")}`}>{s.by}</td>
            <td className={`${CELL.list} text-right font-mono tabular-nums whitespace-nowrap`}>
              {scoreText(s.answer.publicScore, s.answer.kind === "public" ? s.answer.bound : null, s.answer.decimals)}
            </td>
            {revealed && (
              <td className={`${CELL.list} text-right font-mono tabular-nums whitespace-nowrap`} data-testid="private-score">
                {s.privateScore === undefined ? "—" : scoreText(s.privateScore, null, s.answer.decimals)}
              </td>
            )}
            <td className={`${CELL.list}`}>
              {ANSWER_KIND[s.answer.kind]}
              {s.answer.kind !== "public" && s.answer.score !== null && (
                <span className="block font-mono tabular-nums" data-testid="holdout-score">
                  {scoreText(s.answer.score, s.answer.bound, s.answer.decimals)}
                </span>
              )}
            </td>
            <td className={`${CELL.list} ${hiddenBelow("md")} text-right tabular-nums`}>
              {s.budget.remaining} / {s.budget.initial}
            </td>
            <td className={`${CELL.list}`}>
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={s.selected}
                  disabled={locked || s.answer.kind === "late"}
                  onChange={(e) => toggle(s.id, e.target.checked)}
                  aria-label={`Select the submission of ${TIME.format(new Date(s.createdAt))} as final`}
                />
                {!explicit && finalIds.includes(s.id) && <span className="text-xs text-indigo-700">on the board</span>}
              </label>
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
