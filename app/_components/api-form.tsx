"use client";

import { useState } from "react";
import { callApi, fieldErrors } from "./api-client";
import { Field, FormError } from "./field";

type FieldSpec = { label: string; name: string; type?: string; autoComplete?: string; minLength?: number; hint?: string };

/**
 * A form that sends its fields (plus `extra`) as JSON to one API endpoint, shows each field's error
 * from the answer's details beside the field and anything else above the form, and on success says
 * `success` (and clears the form). The account, password-reset and verification pages use it.
 */
export function ApiForm(props: {
  method: "POST" | "PUT";
  path: string;
  fields: FieldSpec[];
  extra?: Record<string, string>;
  submitLabel: string;
  success: string;
  className?: string;
}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setPending(true);
    setDone(false);
    const json = { ...props.extra, ...Object.fromEntries(props.fields.map((f) => [f.name, data.get(f.name)])) };
    const result = await callApi(props.path, { method: props.method, json });
    setPending(false);
    if (result.ok) {
      setErrors({});
      setFormError(undefined);
      setDone(true);
      form.reset();
      return;
    }
    const byField = fieldErrors(
      result.error,
      props.fields.map((f) => f.name),
    );
    setErrors(byField);
    setFormError(Object.keys(byField).length ? undefined : result.error.message);
  }

  return (
    <form onSubmit={onSubmit} className={props.className ?? "max-w-sm space-y-3"} noValidate>
      <FormError message={formError} />
      {props.fields.map((f) => (
        <Field
          key={f.name}
          id={`${props.path}-${f.name}`}
          label={f.label}
          name={f.name}
          type={f.type ?? "text"}
          autoComplete={f.autoComplete}
          minLength={f.minLength}
          hint={f.hint}
          required
          error={errors[f.name]}
        />
      ))}
      <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
        {pending ? "Please wait…" : props.submitLabel}
      </button>
      {done && (
        <p role="status" className="text-sm text-emerald-700">
          {props.success}
        </p>
      )}
    </form>
  );
}
