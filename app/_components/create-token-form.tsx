"use client";

import { useActionState } from "react";
import { createTokenAction, type CreateTokenState } from "../account/actions";
import { CopyBlock } from "./copy-block";
import { Field } from "./field";

/**
 * Creates a named API token and shows it once, with what to do with it (docs/clients.md): the lines
 * that store it in the `quiltboard` command's credentials file (`~/.quiltboard/quiltboard.json`, as
 * Kaggle's kaggle.json), the Python client's, and a request with curl. `appUrl` is this app's
 * public address (NEXTAUTH_URL).
 */
export function CreateTokenForm({ appUrl }: { appUrl: string }) {
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
        <div className="space-y-4 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm" data-testid="token-how-to">
          <div role="status">
            <p className="font-medium text-emerald-800">Copy this token now — it will not be shown again.</p>
            <code data-testid="new-token" className="mt-2 block break-all rounded bg-white px-2 py-1 font-mono text-slate-900">
              {state.token}
            </code>
          </div>
          <div className="space-y-1">
            <p>
              For the <code className="font-mono">quiltboard</code> command: these lines store the address and the token in{" "}
              <code className="font-mono">~/.quiltboard/quiltboard.json</code> (readable by you only), which then holds{" "}
              <code className="font-mono break-all">{JSON.stringify({ url: appUrl, token: state.token })}</code>, as Kaggle&apos;s kaggle.json does.
            </p>
            <CopyBlock label="the command lines" testId="token-cli" lines={[`quiltboard config set -n url -v ${appUrl}`, `quiltboard config set -n token -v ${state.token}`]} />
          </div>
          <div className="space-y-1">
            <p>For the Python client (or set QUILTBOARD_TOKEN in the environment and leave token= out):</p>
            <CopyBlock
              label="the Python lines"
              testId="token-python"
              lines={["from quiltboard import Client", `qb = Client("${appUrl}/competitions/SLUG", token="${state.token}")`]}
            />
          </div>
          <div className="space-y-1">
            <p>For any HTTP client, in the Authorization header:</p>
            <CopyBlock label="the curl line" testId="token-curl" lines={[`curl -H "Authorization: Bearer ${state.token}" ${appUrl}/api/v1/me`]} />
          </div>
        </div>
      )}
    </div>
  );
}
