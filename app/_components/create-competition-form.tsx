"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "./api-client";
import { Field, FormError, SubmitButton, TextAreaField } from "./field";
import type { LabelKind } from "@/lib/csv/solution";
import { METRIC_CATALOGUE, METRIC_NAMES, type MetricName } from "@/lib/metrics/types";

const LABELS: Record<LabelKind, string> = { class: "class labels", probability: "0/1 labels, probabilities", number: "numbers in a range" };
const METRICS = METRIC_NAMES.map((name) => [name, `${METRIC_CATALOGUE[name].title} (${LABELS[METRIC_CATALOGUE[name].input]})`] as const);

type Details = { path: string; message: string }[];

export function CreateCompetitionForm() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [metric, setMetric] = useState<MetricName>("accuracy");
  const ranged = METRIC_CATALOGUE[metric].params === "range";

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    const f = new FormData(event.currentTarget);
    const num = (k: string) => (f.get(k) === "" || f.get(k) === null ? undefined : Number(f.get(k)));
    const body = {
      slug: f.get("slug"),
      title: f.get("title"),
      description: f.get("description"),
      rules: f.get("rules"),
      metric: { name: metric, ...(ranged ? { params: { lo: num("lo"), hi: num("hi") } } : {}) },
      ...(f.get("startsAt") ? { startsAt: `${f.get("startsAt")}:00Z` } : {}),
      endsAt: f.get("endsAt") ? `${f.get("endsAt")}:00Z` : undefined,
      dailySubmissionLimit: num("dailySubmissionLimit"),
      maxTeamSize: num("maxTeamSize"),
      displayPrecision: num("displayPrecision"),
    };
    const result = await callApi<{ slug: string }>("/api/v1/competitions", { method: "POST", json: body });
    setPending(false);
    if (result.ok) return router.push(`/competitions/${result.data.slug}/manage`);
    const details = result.error.details as Details | undefined;
    setErrors(Array.isArray(details) ? Object.fromEntries(details.map((d) => [d.path.split(".")[0], d.message])) : {});
    setFormError(result.error.message);
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5" noValidate>
      <FormError message={formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Title" name="title" required error={errors.title} placeholder="Household Power Spikes" />
        <Field label="Slug (the address)" name="slug" required error={errors.slug} placeholder="power-spikes-2026" pattern="[a-z0-9-]+" />
      </div>
      <TextAreaField label="Description (Markdown)" name="description" rows={5} error={errors.description} />
      <TextAreaField label="Rules (Markdown)" name="rules" rows={3} error={errors.rules} />
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="space-y-1">
          <label htmlFor="metric" className="block text-sm font-medium text-slate-700">
            Metric
          </label>
          <select
            id="metric"
            name="metric"
            value={metric}
            onChange={(e) => setMetric(e.target.value as MetricName)}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2"
          >
            {METRICS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {ranged && (
          <>
            <Field label="Label range: lowest" name="lo" type="number" step="any" required error={errors.metric} />
            <Field label="Label range: highest" name="hi" type="number" step="any" required />
          </>
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Starts (UTC, optional)" name="startsAt" type="datetime-local" error={errors.startsAt} />
        <Field label="Ends (UTC)" name="endsAt" type="datetime-local" required error={errors.endsAt} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Submissions per team per day" name="dailySubmissionLimit" type="number" min={1} defaultValue={5} error={errors.dailySubmissionLimit} />
        <Field label="Largest team" name="maxTeamSize" type="number" min={1} defaultValue={4} error={errors.maxTeamSize} />
        <Field label="Decimals shown" name="displayPrecision" type="number" min={1} max={10} defaultValue={5} error={errors.displayPrecision} />
      </div>
      <div className="max-w-xs">
        <SubmitButton pending={pending}>Create draft</SubmitButton>
      </div>
    </form>
  );
}
