"use client";

import { useActionState } from "react";
import { createTokenAction, type CreateTokenState } from "../account/actions";
import { Field } from "./field";

export function CreateTokenForm() {
  const [state, action, pending] = useActionState<CreateTokenState, FormData>(createTokenAction, { ok: false });
  return (
    <div className="space-y-3">
      <form action={action} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Field label="Token name" name="name" placeholder="e.g. laptop" required error={state.fieldErrors?.name} />
        </div>
        <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
          {pending ? "Creating…" : "Create token"}
        </button>
      </form>
      {state.token && (
        <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm">
          <p className="font-medium text-emerald-800">Copy this token now — it will not be shown again.</p>
          <code data-testid="new-token" className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-slate-900">
            {state.token}
          </code>
        </div>
      )}
    </div>
  );
}
