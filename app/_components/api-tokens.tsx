"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi, fieldErrors } from "./api-client";
import { CopyBlock } from "./copy-block";
import { Field } from "./field";

const ENDED = "Your session has ended; sign in again.";

/**
 * Creates a named API token (POST /api/v1/tokens with the session) and shows it once, with what to do with it (docs/clients.md): the lines
 * that store it in the `quiltboard` command's credentials file (`~/.quiltboard/quiltboard.json`, as
 * Kaggle's kaggle.json), the Python client's, and a request with curl. `appUrl` is this app's
 * public address (NEXTAUTH_URL).
 */
export function CreateTokenForm({ appUrl }: { appUrl: string }) {
  const router = useRouter();
  const [state, setState] = useState<{ token?: string; error?: string }>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const result = await callApi<{ token: string }>("/api/v1/tokens", { method: "POST", json: { name: new FormData(form).get("name") } });
    setPending(false);
    if (!result.ok) {
      // 401: signed out meanwhile, or the password was changed (which signs every session out).
      return setState({ error: result.error.code === "unauthorized" ? ENDED : (fieldErrors(result.error, ["name"]).name ?? result.error.message) });
    }
    setState({ token: result.data.token });
    form.reset();
    router.refresh(); // the list of tokens
  }

  return (
    <div className="space-y-3">
      <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Field label="Token name" name="name" placeholder="e.g. laptop" required error={state.error} />
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

/** Revokes one of the caller's tokens (DELETE /api/v1/tokens/{id}); the list then says "Revoked". */
export function RevokeTokenButton({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function revoke() {
    setPending(true);
    const result = await callApi(`/api/v1/tokens/${id}`, { method: "DELETE" });
    setPending(false);
    setError(result.ok ? undefined : result.error.message);
    router.refresh();
  }

  return (
    <>
      <button
        type="button"
        onClick={revoke}
        disabled={pending}
        className="rounded-md border border-red-200 px-2 py-1 text-red-700 hover:bg-red-50 disabled:opacity-60"
        aria-label={`Revoke token ${name}`}
      >
        Revoke
      </button>
      {error && (
        <p role="alert" className="mt-1 text-red-700">
          {error}
        </p>
      )}
    </>
  );
}
