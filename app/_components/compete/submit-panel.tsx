"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { type ApiError, uploadWithProgress } from "../api-client";
import { useFocusOn } from "../focus";
import { scoreText } from "@/lib/metrics/display";
import { formatBytes } from "@/lib/format";
import { LocalTime } from "../local-time";
import { BUTTON, NOTE } from "../tones";
import { ANSWER_KIND } from "./answer-text";
import type { DailyLimits, SubmissionResult } from "@/lib/responses";
import type { CsvIssue } from "@/lib/csv/reader";

/**
 * Choose (or drop) a predictions CSV, see its name and size and what submitting it uses, then
 * submit it: upload progress, then the answer, which takes the focus (as a rejection does). A
 * submission counts against the daily cap, so nothing is sent before the Submit button. What is
 * used up (today's submissions, the holdout checks, the scored submissions) is said before a file
 * is chosen, not only once it is.
 */
export function SubmitPanel({
  slug,
  maxQueries,
  limits,
  budget,
  scored,
  late,
}: {
  slug: string;
  maxQueries: number | null;
  limits: DailyLimits;
  budget: { remaining: number; initial: number };
  scored: { used: number; limit: number } | null;
  late: boolean;
}) {
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const [result, setResult] = useState<SubmissionResult>();
  const [error, setError] = useState<ApiError>();
  const [description, setDescription] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const none = limits.remainingToday === 0;
  const unchecked = late ? null : usedUp(budget, scored);
  // The answer (or the rejection) takes the focus.
  const outcome = useFocusOn<HTMLDivElement>(result ?? error);

  function choose(chosen: File | undefined) {
    if (!chosen || none) return;
    setFile(chosen);
    setResult(undefined);
    setError(undefined);
  }

  async function send() {
    if (!file) return;
    setError(undefined);
    setResult(undefined);
    setProgress(0);
    const form = new FormData();
    form.set("file", file);
    form.set("description", description);
    const response = await uploadWithProgress<SubmissionResult>({ method: "POST", url: `/api/v1/competitions/${slug}/submissions`, body: form, onProgress: setProgress });
    setProgress(null);
    setFile(null);
    if (!response.ok) return setError(response.error);
    setResult(response.data);
    setDescription("");
    router.refresh();
  }

  const issues = Array.isArray(error?.details) ? (error!.details as CsvIssue[]) : [];
  const reset = <LocalTime at={limits.resetsAt} shown="time" />;
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
      <p className="text-sm text-slate-600" data-testid="submissions-left">
        {limits.remainingToday} of {limits.dailyLimit} submissions left today; the count resets at {reset}.
      </p>
      {unchecked && (
        <p className={NOTE.warning} data-testid="checks-used-up">
          {unchecked}
        </p>
      )}
      {none ? (
        <p className={NOTE.warning} data-testid="no-submissions-left">
          Your team has used all of today&apos;s submissions: choose a file again after {reset}.
        </p>
      ) : (
        <label
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            choose(e.dataTransfer.files[0]);
          }}
          className={`flex cursor-pointer flex-col items-center justify-center rounded-xl border-2 border-dashed px-4 py-8 text-center transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-600 has-[:focus-visible]:border-indigo-500 ${dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-slate-50 hover:bg-slate-100"}`}
        >
          <span className="font-medium text-slate-800">Choose a predictions CSV, or drop it here</span>
          <span className="text-sm text-slate-600">Header id,prediction — one row for every test id</span>
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv"
            className="sr-only"
            disabled={progress !== null}
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = ""; // choosing the same file again is a new choice
            }}
          />
        </label>
      )}
      {file && progress === null && (
        <div className="space-y-3 rounded-md border border-slate-200 bg-white p-4 text-sm" data-testid="submission-confirm">
          <div role="status">
            <p>
              <strong className="break-all">{file.name}</strong> <span className="text-slate-600">· {formatBytes(file.size)}</span>
            </p>
            <p className="mt-1 text-slate-700">
              Submitting it uses 1 of the {limits.remainingToday} submissions your team has left today (the count resets at {reset}).
              {unchecked && ` ${unchecked}`}
            </p>
          </div>
          <div className="flex flex-wrap gap-3">
            <button type="button" onClick={send} className={BUTTON.primary}>
              Submit {file.name.length > 40 ? "this file" : file.name}
            </button>
            <button
              type="button"
              onClick={() => {
                setFile(null);
                input.current?.focus();
              }}
              className={BUTTON.secondary}
            >
              Choose another file
            </button>
          </div>
        </div>
      )}
      {progress !== null && (
        <div aria-live="polite">
          <progress max={1} value={progress} aria-label="Upload progress" className="h-2 w-full" />
          <p className="text-sm text-slate-600">{progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : "Scoring…"}</p>
        </div>
      )}
      {result && (
        <div ref={outcome} tabIndex={-1} role="status" data-testid="submission-result" className={result.answer.score === null ? NOTE.warning : NOTE.success}>
          <p>
            <strong>{ANSWER_KIND[result.answer.kind]}.</strong> {answerExplanation(result, maxQueries)}
          </p>
          <p className="mt-1">
            Holdout checks left: {result.budget.remaining} of {result.budget.initial}.
          </p>
        </div>
      )}
      {error && (
        <div ref={outcome} tabIndex={-1} role="alert" className={NOTE.error}>
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

/**
 * What a submission will get when the team's holdout checks or its scored submissions are used up
 * (the answer kinds `exhausted` and `limit`), or null while its scores are still checked.
 */
function usedUp(budget: { remaining: number }, scored: { used: number; limit: number } | null): string | null {
  if (scored && scored.used >= scored.limit)
    return `Your team has used all ${scored.limit} scored submissions this competition allows: a submission now shows its public score, not checked, and stays off the leaderboard.`;
  if (budget.remaining <= 0) return "Your team's holdout checks are used up: a submission now shows its public score, not checked, and stays off the leaderboard.";
  return null;
}

/**
 * What an answer means for the team, with its scores to the decimals its ± supports (the answer's
 * `decimals`, lib/metrics/display.ts): a checked score with the ± the mechanism proves for it
 * (docs/mechanism.md §2.8), a score not checked without one.
 */
function answerExplanation({ answer }: SubmissionResult, maxQueries: number | null): string {
  const publicScore = scoreText(answer.publicScore, null, answer.decimals);
  switch (answer.kind) {
    case "public":
      return `${scoreText(answer.publicScore, answer.bound, answer.decimals)}: your public score agrees with the hidden holdout, so it goes on the leaderboard; nothing was spent.`;
    case "holdout":
      return `Its public and holdout scores differ by more than the threshold, so you get the holdout score with noise: ${scoreText(answer.score, answer.bound, answer.decimals)}. Your public score, not checked: ${publicScore}.`;
    case "exhausted":
      return `Your team's holdout checks are used up, so this score is not checked and does not go on the leaderboard: public score ${publicScore}.`;
    case "limit":
      return `This competition's limit of ${maxQueries ?? "m"} scored submissions per team is reached: public score ${publicScore}, not checked. It did not count in today's submissions.`;
    case "capped":
      return `The competition's cap on holdout checks over all teams is reached, so no more scores are checked: public score ${publicScore}.`;
    case "late":
      return `A late submission: its exact holdout score is ${scoreText(answer.score, null, answer.decimals)}, on the late board; it does not change the final standings.`;
  }
}
