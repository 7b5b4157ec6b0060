"use client";

import { useState } from "react";
import { callApi } from "./api-client";
import { Field, FormError } from "./field";

type Errors = { currentPassword?: string; newPassword?: string };

/** Changes the password through PUT /api/v1/me/password; the form is cleared when it worked. */
export function ChangePasswordForm() {
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string>();
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setPending(true);
    setDone(false);
    const result = await callApi("/api/v1/me/password", { method: "PUT", json: { currentPassword: data.get("currentPassword"), newPassword: data.get("newPassword") } });
    setPending(false);
    if (result.ok) {
      setErrors({});
      setFormError(undefined);
      setDone(true);
      form.reset();
      return;
    }
    const fields = Array.isArray(result.error.details) ? (result.error.details as { path: string; message: string }[]) : [];
    setErrors(Object.fromEntries(fields.map((d) => [d.path, d.message])));
    setFormError(result.error.code === "forbidden" || fields.length === 0 ? result.error.message : undefined);
  }

  return (
    <form onSubmit={onSubmit} className="max-w-sm space-y-3" noValidate>
      <FormError message={formError} />
      <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required error={errors.currentPassword} />
      <Field label="New password" name="newPassword" type="password" autoComplete="new-password" minLength={10} required error={errors.newPassword} />
      <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
        {pending ? "Changing…" : "Change password"}
      </button>
      {done && (
        <p role="status" className="text-sm text-emerald-700">
          Your password was changed.
        </p>
      )}
    </form>
  );
}
