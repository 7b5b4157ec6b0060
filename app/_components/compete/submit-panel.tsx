"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { type ApiError, uploadWithProgress } from "../api-client";
import type { ScoreUncertainty, SubmissionResult } from "@/lib/responses";
import { scoreText } from "../format";
import { ANSWER_KIND } from "./answer-text";
import type { CsvIssue } from "@/lib/csv/reader";

/** Drag and drop (or choose) a predictions CSV; shows upload progress and then the answer. */
export function SubmitPanel({ slug, uncertainty, maxQueries }: { slug: string; uncertainty: ScoreUncertainty | null; maxQueries: number | null }) {
  const router = useRouter();
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const [result, setResult] = useState<SubmissionResult>();
  const [error, setError] = useState<ApiError>();
  const [description, setDescription] = useState("");

  async function send(file: File) {
    setError(undefined);
    setResult(undefined);
    setProgress(0);
    const form = new FormData();
    form.set("file", file);
    form.set("description", description);
    const response = await uploadWithProgress<SubmissionResult>({ method: "POST", url: `/api/v1/competitions/${slug}/submissions`, body: form, onProgress: setProgress });
    setProgress(null);
    if (!response.ok) return setError(response.error);
    setResult(response.data);
    setDescription("");
    router.refresh();
  }

  const issues = Array.isArray(error?.details) ? (error!.details as CsvIssue[]) : [];
  return (
    <div className="space-y-3">
      <div className="space-y-1">
        <label htmlFor="submission-description" className="block text-sm font-medium text-slate-700">
          Note (optional): which experiment is this?
        </label>
        <input
          id="submission-description"
          value={description}
          maxLength={500}
          onChange={(e) => setDescription(e.target.value)}
          placeholder="e.g. gradient boosting, 300 trees, lag features"
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
      </div>
      <label
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const file = e.dataTransfer.files[0];
          if (file) send(file);
        }}
        className={`flex cursor-pointer flex-col items-center justify-center rounded-xl border-2 border-dashed px-4 py-8 text-center transition ${dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-slate-50 hover:bg-slate-100"}`}
      >
        <span className="font-medium text-slate-800">Drop your predictions CSV here, or choose a file</span>
        <span className="text-sm text-slate-500">Header id,prediction — one row for every test id</span>
        <input
          type="file"
          accept=".csv,text/csv"
          className="sr-only"
          aria-label="Predictions CSV"
          disabled={progress !== null}
          onChange={(e) => e.target.files?.[0] && send(e.target.files[0])}
        />
      </label>
      {progress !== null && (
        <div aria-live="polite">
          <progress max={1} value={progress} aria-label="Upload progress" className="h-2 w-full" />
          <p className="text-sm text-slate-600">{progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : "Scoring…"}</p>
        </div>
      )}
      {result && (
        <div
          role="status"
          data-testid="submission-result"
          className={`rounded-md px-4 py-3 text-sm ${result.answer.score === null ? "bg-amber-50 text-amber-900" : "bg-emerald-50 text-emerald-900"}`}
        >
          <p>
            <strong>{ANSWER_KIND[result.answer.kind]}.</strong> {answerExplanation(result, uncertainty, maxQueries)}
          </p>
          <p className="mt-1">
            Holdout checks left: {result.budget.remaining} of {result.budget.initial}.
          </p>
        </div>
      )}
      {error && (
        <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-medium">{issues.length ? "The file was rejected; nothing was spent:" : error.message}</p>
          {issues.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
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

/** What an answer means for the team, with its scores to the decimals they support (docs/mechanism.md §2.6). */
function answerExplanation({ answer }: SubmissionResult, uncertainty: ScoreUncertainty | null, maxQueries: number | null): string {
  const publicScore = scoreText(answer.publicScore, uncertainty?.public ?? null);
  switch (answer.kind) {
    case "public":
      return `${publicScore}: your public score agrees with the hidden holdout, so it goes on the leaderboard; nothing was spent.`;
    case "holdout":
      return `Its public and holdout scores differ by more than the threshold, so you get the holdout score with noise: ${scoreText(answer.score, uncertainty?.holdout ?? null)} (95 %). Your public score, not checked: ${publicScore}.`;
    case "exhausted":
      return `Your team's holdout checks are used up, so this score is not checked and does not go on the leaderboard: public score ${publicScore}.`;
    case "limit":
      return `This competition's limit of ${maxQueries ?? "m"} scored submissions per team is reached: public score ${publicScore}, not checked. It did not count in today's submissions.`;
    case "capped":
      return `The competition's cap on holdout checks over all teams is reached, so no more scores are checked: public score ${publicScore}.`;
    case "late":
      return `A late submission: its exact holdout score is ${scoreText(answer.score, null)}, on the late board; it does not change the final standings.`;
  }
}
