"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import { Field, FormError, TextAreaField } from "../field";
import { significant } from "../format";
import type { SettingsPreview } from "@/lib/responses";

export type EditableSettings = { title: string; description: string; rules: string; endsAt: string; dailySubmissionLimit: number; lateSubmissions: boolean };

const LABELS: Record<string, string> = {
  title: "Title",
  description: "Description",
  rules: "Rules",
  endsAt: "Deadline",
  dailySubmissionLimit: "Daily cap",
  lateSubmissions: "Late submissions",
  maxQueries: "m (submissions per team the guarantee covers)",
  sigma: "σ",
  threshold: "T",
  budget: "B₀ for new teams",
};

function shown(value: unknown): string {
  if (typeof value === "number") return significant(value);
  if (typeof value === "boolean") return value ? "on" : "off";
  const text = String(value ?? "");
  return text.length > 60 ? `${text.slice(0, 57)}…` : text || "(empty)";
}

/**
 * The settings organizers may change (after publishing too: docs/operating.md §1). Saving is two
 * steps: the server's preview of every change, with the recomputed plan when m moves, then the save.
 */
export function SettingsEditor({ slug, current, closed }: { slug: string; current: EditableSettings; closed: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [review, setReview] = useState<{ body: Record<string, unknown>; preview: SettingsPreview }>();
  const [saved, setSaved] = useState(false);

  function changed(form: FormData): Record<string, unknown> {
    const next: EditableSettings = {
      title: String(form.get("title")),
      description: String(form.get("description")),
      rules: String(form.get("rules")),
      endsAt: closed ? current.endsAt : `${form.get("endsAt")}:00.000Z`,
      dailySubmissionLimit: closed ? current.dailySubmissionLimit : Number(form.get("dailySubmissionLimit")),
      lateSubmissions: form.get("lateSubmissions") === "on",
    };
    return Object.fromEntries(Object.entries(next).filter(([k, v]) => v !== current[k as keyof EditableSettings]));
  }

  async function onReview(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = changed(new FormData(event.currentTarget));
    setSaved(false);
    if (Object.keys(body).length === 0) return setError("nothing changed");
    setPending(true);
    const result = await callApi<SettingsPreview>(`/api/v1/competitions/${slug}?preview=true`, { method: "PATCH", json: body });
    setPending(false);
    if (!result.ok) return setError(result.error.message);
    setError(undefined);
    setReview({ body, preview: result.data });
  }

  async function onSave() {
    setPending(true);
    const result = await callApi(`/api/v1/competitions/${slug}`, { method: "PATCH", json: review!.body });
    setPending(false);
    if (!result.ok) return setError(result.error.message);
    setReview(undefined);
    setSaved(true);
    router.refresh();
  }

  return (
    <div className="space-y-4 text-sm">
      <FormError message={error} />
      <form onSubmit={onReview} className="grid gap-3 md:grid-cols-2" aria-label="Settings">
        <Field label="Title" name="title" id="settings-title" defaultValue={current.title} className="md:col-span-2" />
        <Field label="Deadline (UTC)" name="endsAt" id="settings-endsAt" type="datetime-local" defaultValue={current.endsAt.slice(0, 16)} disabled={closed} />
        <Field
          label="Submissions per team per day"
          name="dailySubmissionLimit"
          id="settings-dailySubmissionLimit"
          type="number"
          min={1}
          max={1000}
          defaultValue={current.dailySubmissionLimit}
          disabled={closed}
        />
        <TextAreaField label="Description (Markdown)" name="description" id="settings-description" defaultValue={current.description} rows={4} className="md:col-span-2" />
        <TextAreaField label="Rules (Markdown)" name="rules" id="settings-rules" defaultValue={current.rules} rows={3} className="md:col-span-2" />
        <label className="flex items-center gap-2 md:col-span-2">
          <input type="checkbox" name="lateSubmissions" defaultChecked={current.lateSubmissions} /> Accept late submissions after the close (exact holdout scores on a separate late
          board)
        </label>
        <div className="md:col-span-2">
          <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
            Review changes
          </button>
        </div>
      </form>
      {review && (
        <div role="region" aria-label="Review of the changes" className="space-y-3 rounded-md border border-indigo-200 bg-indigo-50 p-4" data-testid="settings-review">
          <ul className="space-y-1">
            {review.preview.changes.map((c) => (
              <li key={c.field}>
                <strong>{LABELS[c.field] ?? c.field}</strong>: {shown(c.before)} → {shown(c.after)}
              </li>
            ))}
          </ul>
          {review.preview.plan && (
            <p>
              {review.preview.plan.replanned
                ? "No team has submitted yet, so σ, T and B₀ are planned afresh for the new m. Existing teams keep their B₀."
                : "Teams have submitted, so σ, T and B₀ stay; the guarantee is recomputed for the new m."}{" "}
              After the change: {review.preview.plan.after.explanation}
            </p>
          )}
          <div className="flex gap-3">
            <button type="button" onClick={onSave} disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
              Save changes
            </button>
            <button type="button" onClick={() => setReview(undefined)} className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-100">
              Cancel
            </button>
          </div>
        </div>
      )}
      {saved && (
        <p role="status" className="text-emerald-700">
          Saved.
        </p>
      )}
    </div>
  );
}
