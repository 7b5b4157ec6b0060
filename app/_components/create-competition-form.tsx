"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "./api-client";
import { Field, focusFirstError, FormError, SubmitButton, TextAreaField } from "./field";
import { MetricField, metricFromForm } from "./metric-field";
import { MomentField } from "./moment-field";
import { NOTE } from "./tones";

type Details = { path: string; message: string }[];

/** "Household Power Spikes 2027" → "household-power-spikes-2027": the address a title suggests. */
export function slugOf(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/**
 * A new draft. The slug follows the title until it is edited by hand; a deadline in the past is
 * allowed (a draft can move it before publishing) but said at once.
 */
export function CreateCompetitionForm() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [slug, setSlug] = useState({ value: "", edited: false });
  const [past, setPast] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    setPending(true);
    const f = new FormData(element);
    const num = (k: string) => (f.get(k) === "" || f.get(k) === null ? undefined : Number(f.get(k)));
    const body = {
      slug: f.get("slug"),
      title: f.get("title"),
      description: f.get("description"),
      rules: f.get("rules"),
      metric: metricFromForm(f),
      ...(f.get("startsAt") ? { startsAt: f.get("startsAt") } : {}),
      endsAt: f.get("endsAt") || undefined,
      dailySubmissionLimit: num("dailySubmissionLimit"),
      maxTeamSize: num("maxTeamSize"),
      displayPrecision: num("displayPrecision"),
    };
    const result = await callApi<{ slug: string }>("/api/v1/competitions", { method: "POST", json: body });
    setPending(false);
    if (result.ok) return router.push(`/competitions/${result.data.slug}/manage`);
    const details = result.error.details as Details | undefined;
    const byField = Array.isArray(details) ? Object.fromEntries(details.map((d) => [d.path.split(".")[0], d.message])) : {};
    setErrors(byField);
    setFormError(result.error.message);
    requestAnimationFrame(() => focusFirstError(element, byField));
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5" noValidate>
      <FormError message={formError} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Title"
          name="title"
          required
          error={errors.title}
          placeholder="Household Power Spikes"
          onChange={(e) => !slug.edited && setSlug({ value: slugOf(e.target.value), edited: false })}
        />
        <Field
          label="Slug (the address)"
          name="slug"
          required
          error={errors.slug}
          placeholder="power-spikes-2026"
          pattern="[a-z0-9-]+"
          value={slug.value}
          onChange={(e) => setSlug({ value: e.target.value, edited: true })}
          hint={slug.value ? `The competition's address: /competitions/${slug.value}` : "Lowercase letters, digits and hyphens; made from the title until you change it."}
        />
      </div>
      <TextAreaField label="Description (Markdown)" name="description" rows={5} error={errors.description} hint="Tables, lists and links work; the Overview tab shows it." />
      <TextAreaField label="Rules (Markdown)" name="rules" rows={3} error={errors.rules} />
      <MetricField idPrefix="create" error={errors.metric} />
      <div className="grid gap-4 sm:grid-cols-2">
        <MomentField label="Starts" optional name="startsAt" error={errors.startsAt} />
        <MomentField label="Ends" name="endsAt" required error={errors.endsAt} onMoment={(iso) => setPast(iso !== null && Date.parse(iso) <= Date.now())} />
      </div>
      {past && (
        <p role="status" className={NOTE.warning}>
          This deadline has passed. The draft can be created, but it cannot be published until the deadline is in the future.
        </p>
      )}
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
