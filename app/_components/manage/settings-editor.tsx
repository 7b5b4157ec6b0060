"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import { Field, FormError, TextAreaField } from "../field";
import { useFocusOn } from "../focus";
import { MomentField } from "../moment-field";
import { type MetricChoice, MetricField, metricFromForm } from "../metric-field";
import { BUTTON } from "../tones";
import type { SettingsPreview } from "@/lib/responses";
import { describeChange } from "@/lib/setting-values";

/** What the form edits; `metric`, `startsAt`, `maxTeamSize` and `displayPrecision` only while a draft. */
export type EditableSettings = {
  title: string;
  description: string;
  rules: string;
  endsAt: string;
  dailySubmissionLimit: number;
  lateSubmissions: boolean;
  metric: MetricChoice;
  startsAt: string | null;
  maxTeamSize: number;
  displayPrecision: number;
};

/** A MomentField's instant, or null when it is empty. */
const moment = (value: FormDataEntryValue | null) => (value ? String(value) : null);

/**
 * The settings organizers may change (after publishing too: docs/operating.md §1; a draft also its
 * metric, start, team size and decimals). Saving is two steps: the server's preview of every change,
 * with the recomputed plan when m moves, then the save.
 */
export function SettingsEditor({ slug, current, status }: { slug: string; current: EditableSettings; status: "draft" | "published" | "closed" }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [review, setReview] = useState<{ body: Record<string, unknown>; preview: SettingsPreview }>();
  const [saved, setSaved] = useState(false);
  const reviewed = useFocusOn<HTMLElement>(review);
  const [draft, closed] = [status === "draft", status === "closed"];

  function changed(form: FormData): Record<string, unknown> {
    const next: Partial<EditableSettings> = {
      title: String(form.get("title")),
      description: String(form.get("description")),
      rules: String(form.get("rules")),
      lateSubmissions: form.get("lateSubmissions") === "on",
      ...(!closed && { endsAt: moment(form.get("endsAt"))!, dailySubmissionLimit: Number(form.get("dailySubmissionLimit")) }),
      ...(draft && {
        metric: metricFromForm(form),
        startsAt: moment(form.get("startsAt")),
        maxTeamSize: Number(form.get("maxTeamSize")),
        displayPrecision: Number(form.get("displayPrecision")),
      }),
    };
    // A metric without parameters is stored with {} as its parameters.
    const normal = (k: string, v: unknown) => (k === "metric" ? { name: (v as MetricChoice).name, params: (v as MetricChoice).params ?? {} } : v);
    return Object.fromEntries(Object.entries(next).filter(([k, v]) => JSON.stringify(normal(k, v)) !== JSON.stringify(normal(k, current[k as keyof EditableSettings]))));
  }

  async function onReview(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = changed(new FormData(event.currentTarget));
    setSaved(false);
    if (Object.keys(body).length === 0) return setError("Nothing changed.");
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
        {draft && (
          <div className="md:col-span-2">
            <MetricField idPrefix="settings" initial={current.metric} />
          </div>
        )}
        {draft && <MomentField label="Start" optional name="startsAt" id="settings-startsAt" initial={current.startsAt} />}
        <MomentField label="Deadline" name="endsAt" id="settings-endsAt" initial={current.endsAt} disabled={closed} />
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
        {draft && (
          <>
            <Field label="Largest team" name="maxTeamSize" id="settings-maxTeamSize" type="number" min={1} max={100} defaultValue={current.maxTeamSize} />
            <Field label="Decimals shown" name="displayPrecision" id="settings-displayPrecision" type="number" min={1} max={10} defaultValue={current.displayPrecision} />
          </>
        )}
        <TextAreaField label="Description (Markdown)" name="description" id="settings-description" defaultValue={current.description} rows={4} className="md:col-span-2" />
        <TextAreaField label="Rules (Markdown)" name="rules" id="settings-rules" defaultValue={current.rules} rows={3} className="md:col-span-2" />
        <label className="flex items-center gap-2 md:col-span-2">
          <input type="checkbox" name="lateSubmissions" defaultChecked={current.lateSubmissions} /> Accept late submissions after the close (exact holdout scores on a separate late
          board)
        </label>
        {!draft && <p className="text-slate-600 md:col-span-2">The metric, the start, the team size and the decimals were fixed when the competition was published.</p>}
        <div className="md:col-span-2">
          <button type="submit" disabled={pending} className={BUTTON.primary}>
            Review changes
          </button>
        </div>
      </form>
      {review && (
        <section
          ref={reviewed}
          tabIndex={-1}
          aria-label="Review of the changes"
          className="space-y-3 rounded-md border border-indigo-200 bg-indigo-50 p-4"
          data-testid="settings-review"
        >
          <ul className="space-y-1">
            {review.preview.changes.map((c) => {
              const change = describeChange(c);
              return (
                <li key={c.field} className="break-words">
                  <strong>{change.name}</strong>: {change.before} → {change.after}
                </li>
              );
            })}
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
            <button type="button" onClick={onSave} disabled={pending} className={BUTTON.primary}>
              Save changes
            </button>
            <button type="button" onClick={() => setReview(undefined)} className={BUTTON.secondary}>
              Cancel
            </button>
          </div>
        </section>
      )}
      {saved && (
        <p role="status" className="text-emerald-700">
          Saved.
        </p>
      )}
    </div>
  );
}
