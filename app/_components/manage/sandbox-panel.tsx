"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi, uploadWithProgress } from "../api-client";
import { Field, FormError } from "../field";
import { CELL, DataTable } from "../data-table";
import { LocalTime } from "../local-time";
import { formatUtc } from "@/lib/format";
import { FILE_INPUT } from "../tones";

/** One sandbox test as the panel shows it, formatted on the server: `scores` are the exact public and holdout scores as text. */
export type SandboxLine = { id: string; time: string; by: string; note: string; filename: string; scores: [string, string]; baseline: { name: string; score: string } | null };

/**
 * Test a file against the key (exact scores, nothing spent or ranked) and show a test as a
 * leaderboard baseline (docs/operating.md §6).
 */
export function SandboxPanel({ slug, lines, canShowBaselines }: { slug: string; lines: SandboxLine[]; canShowBaselines: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [progress, setProgress] = useState<number | null>(null);

  async function onTest(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const file = data.get("file");
    if (!(file instanceof File) || file.size === 0) return setError("Choose a predictions CSV to test.");
    setProgress(0);
    const result = await uploadWithProgress({ method: "POST", url: `/api/v1/competitions/${slug}/submissions?sandbox=true`, body: data, onProgress: setProgress });
    setProgress(null);
    if (!result.ok) return setError(result.error.message);
    setError(undefined);
    form.reset();
    router.refresh();
  }

  async function baseline(id: string, name: string | null) {
    const path = `/api/v1/competitions/${slug}/sandbox/${id}/baseline`;
    const result = await callApi(path, name === null ? { method: "DELETE" } : { method: "PUT", json: { name } });
    setError(result.ok ? undefined : result.error.message);
    router.refresh();
  }

  return (
    <div className="space-y-3 text-sm">
      <FormError message={error} />
      <form onSubmit={onTest} className="flex flex-wrap items-end gap-3" aria-label="Sandbox test">
        <label className="space-y-1">
          <span className="block font-medium text-slate-700">Predictions CSV</span>
          <input type="file" name="file" accept=".csv,text/csv" className={FILE_INPUT} />
        </label>
        <Field label="Note" name="description" id="sandbox-note" maxLength={500} placeholder="e.g. majority class" />
        <button type="submit" disabled={progress !== null} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
          {progress === null ? "Test against the key" : progress < 1 ? `Uploading ${Math.round(progress * 100)} %` : "Scoring…"}
        </button>
      </form>
      {lines.length > 0 && (
        <DataTable
          caption="Sandbox tests with their exact scores"
          testId="sandbox"
          columns={[{ label: "Time" }, { label: "File, note" }, { label: "Public", numeric: true }, { label: "Holdout", numeric: true }, { label: "Baseline on the leaderboard" }]}
        >
          {lines.map((t) => (
            <tr key={t.id}>
              <td className={`${CELL.list} whitespace-nowrap`}>
                <LocalTime at={t.time} />
              </td>
              <td className={`${CELL.list}`}>
                <a href={`/api/v1/competitions/${slug}/submissions/${t.id}/file`} className="font-medium text-indigo-700 hover:underline">
                  {t.filename}
                </a>
                {t.note && <span className="block text-xs text-slate-600">{t.note}</span>}
              </td>
              <td className={`${CELL.list} text-right font-mono tabular-nums`}>{t.scores[0]}</td>
              <td className={`${CELL.list} text-right font-mono tabular-nums`}>{t.scores[1]}</td>
              <td className={`${CELL.list}`}>
                {t.baseline ? (
                  <span className="flex items-center gap-2">
                    “{t.baseline.name}”, shown as {t.baseline.score}
                    <button type="button" onClick={() => baseline(t.id, null)} className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100">
                      Hide
                    </button>
                  </span>
                ) : canShowBaselines ? (
                  <form
                    className="flex items-center gap-2"
                    onSubmit={(e) => {
                      e.preventDefault();
                      baseline(t.id, String(new FormData(e.currentTarget).get("name")));
                    }}
                  >
                    <input
                      name="name"
                      aria-label={`Baseline name for ${t.filename} (${formatUtc(t.time)} UTC)`}
                      placeholder="name"
                      maxLength={60}
                      className="w-32 rounded-md border border-slate-300 px-2 py-0.5"
                    />
                    <button type="submit" className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100">
                      Show
                    </button>
                  </form>
                ) : (
                  <span className="text-slate-600">after publishing</span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
