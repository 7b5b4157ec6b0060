"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { type ApiError, uploadWithProgress } from "../api-client";
import type { CsvIssue } from "@/lib/csv/reader";
import { FILE_INPUT } from "../tones";

/** Upload the solution CSV with a progress bar; errors list each line's problem. */
export function SolutionUpload({ slug, locked }: { slug: string; locked: boolean }) {
  const router = useRouter();
  const [progress, setProgress] = useState<number | null>(null);
  const [phase, setPhase] = useState<"idle" | "uploading" | "validating">("idle");
  const [error, setError] = useState<ApiError>();
  const [done, setDone] = useState<string>();
  const [warnings, setWarnings] = useState<string[]>([]);

  async function upload(file: File) {
    setError(undefined);
    setDone(undefined);
    setWarnings([]);
    setPhase("uploading");
    setProgress(0);
    const result = await uploadWithProgress<{ rows: number; public: number; holdout: number; warnings: string[] }>({
      method: "PUT",
      url: `/api/v1/competitions/${slug}/solution`,
      body: file,
      contentType: "text/csv",
      onProgress: (f) => {
        setProgress(f);
        if (f >= 1) setPhase("validating");
      },
    });
    setPhase("idle");
    setProgress(null);
    if (!result.ok) return setError(result.error);
    setDone(`Stored ${result.data.rows.toLocaleString("en")} rows: ${result.data.public.toLocaleString("en")} public, ${result.data.holdout.toLocaleString("en")} holdout.`);
    setWarnings(result.data.warnings);
    router.refresh();
  }

  if (locked) return <p className="text-sm text-slate-600">The solution is locked because the competition is published.</p>;
  const issues = Array.isArray(error?.details) ? (error!.details as CsvIssue[]) : [];
  return (
    <div className="space-y-3">
      <label className="block">
        <span className="text-sm font-medium text-slate-700">Solution CSV (id,label,split and optional order,group,state)</span>
        <input type="file" accept=".csv,text/csv" disabled={phase !== "idle"} onChange={(e) => e.target.files?.[0] && upload(e.target.files[0])} className={FILE_INPUT} />
      </label>
      {progress !== null && (
        <div>
          <progress
            max={1}
            value={progress}
            aria-label="Upload progress"
            className="h-2 w-full overflow-hidden rounded [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-600"
          />
          <p className="text-sm text-slate-600" aria-live="polite">
            {phase === "validating" ? "Validating every row…" : `Uploading… ${Math.round(progress * 100)}%`}
          </p>
        </div>
      )}
      {done && (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {done}
        </p>
      )}
      {warnings.map((w) => (
        <p key={w} role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800" data-testid="solution-warning">
          {w}
        </p>
      ))}
      {error && (
        <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-medium">{issues.length ? "The file was rejected; nothing was changed:" : error.message}</p>
          {issues.length > 0 && (
            <ul className="mt-1 list-disc pl-5" data-testid="solution-errors">
              {issues.map((i) => (
                <li key={`${i.line}-${i.message}`}>{i.line ? `Line ${i.line}: ${i.message}` : i.message}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
