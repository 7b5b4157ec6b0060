"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import { CELL, DataTable, hiddenBelow } from "../data-table";
import { Field, FormError } from "../field";
import { LocalTime } from "../local-time";
import { BUTTON } from "../tones";
import type { WebhookView } from "@/lib/responses";
import { WEBHOOK_EVENTS } from "@/lib/validation/competitions";

/**
 * The competition's webhooks (docs/api.md, Webhooks): add a receiver (its signing secret is shown
 * here once, never again), send it a test event, delete it, and each one's last deliveries.
 */
export function Webhooks({ slug, webhooks }: { slug: string; webhooks: WebhookView[] }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<{ url: string; secret: string }>();
  const [status, setStatus] = useState<string>();
  const [some, setSome] = useState(false);
  const base = `/api/v1/competitions/${slug}/webhooks`;

  async function onAdd(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const events = some ? Object.keys(WEBHOOK_EVENTS).filter((e) => data.get(e) === "on") : "all";
    const result = await callApi<{ url: string; secret: string }>(base, { method: "POST", json: { url: data.get("url"), events } });
    if (!result.ok) return setError(result.error.message);
    setError(undefined);
    setCreated({ url: result.data.url, secret: result.data.secret });
    form.reset();
    setSome(false);
    router.refresh();
  }

  async function act(path: string, method: string, done: string) {
    const result = await callApi(path, { method });
    setError(result.ok ? undefined : result.error.message);
    setStatus(result.ok ? done : undefined);
    router.refresh();
  }

  return (
    <div className="space-y-4 text-sm">
      <FormError message={error} />
      <form onSubmit={onAdd} className="space-y-3" aria-label="Add a webhook">
        <Field label="Receiver URL" name="url" id="webhook-url" type="url" required placeholder="https://example.org/quiltboard" />
        <fieldset className="space-y-1">
          <legend className="font-medium">Events</legend>
          <label className="flex items-start gap-2">
            <input type="radio" name="which" checked={!some} onChange={() => setSome(false)} className="mt-1 h-4 w-4" />
            <span>All events, those added later too</span>
          </label>
          <label className="flex items-start gap-2">
            <input type="radio" name="which" checked={some} onChange={() => setSome(true)} className="mt-1 h-4 w-4" />
            <span>Only these:</span>
          </label>
          {Object.entries(WEBHOOK_EVENTS).map(([type, what]) => (
            <label key={type} className="flex items-start gap-2 pl-6">
              <input type="checkbox" name={type} defaultChecked disabled={!some} className="mt-1 h-4 w-4" />
              <span>
                <code className="font-mono">{type}</code>: {what}
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" className={BUTTON.primary}>
          Add webhook
        </button>
      </form>
      {created && (
        <div role="status" className="space-y-1 rounded-md bg-amber-50 px-3 py-2 text-amber-900" data-testid="webhook-secret">
          <p>The signing secret of {created.url}. Copy it now: it is not shown again.</p>
          <p className="font-mono break-all text-slate-900">{created.secret}</p>
        </div>
      )}
      <p role="status" className="text-emerald-700">
        {status}
      </p>
      {webhooks.map((w) => (
        <div key={w.id} className="space-y-2 border-t border-slate-200 pt-3" data-testid="webhook">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-mono break-all">{w.url}</p>
            <div className="flex gap-2">
              <button type="button" className={BUTTON.small} onClick={() => act(`${base}/${w.id}/test`, "POST", "Test event sent.")}>
                Send test event<span className="sr-only"> to {w.url}</span>
              </button>
              <button type="button" className={BUTTON.small} onClick={() => act(`${base}/${w.id}`, "DELETE", "Webhook deleted.")}>
                Delete<span className="sr-only"> the webhook to {w.url}</span>
              </button>
            </div>
          </div>
          <p className="text-slate-600">{w.events === "all" ? "All events" : w.events.join(", ")}</p>
          {w.deliveries.length > 0 && (
            <DataTable
              caption={`Deliveries to ${w.url}`}
              columns={[{ label: "Queued" }, { label: "Event" }, { label: "State" }, { label: "Attempts", numeric: true, from: "sm" }, { label: "Last error", from: "sm" }]}
            >
              {w.deliveries.map((d) => (
                <tr key={d.id}>
                  <td className={CELL.list}>
                    <LocalTime at={d.createdAt} />
                  </td>
                  <td className={`${CELL.list} font-mono`}>{d.type}</td>
                  <td className={CELL.list}>{d.state}</td>
                  <td className={`${CELL.list} ${hiddenBelow("sm")} text-right`}>{d.attempts}</td>
                  <td className={`${CELL.list} ${hiddenBelow("sm")} text-slate-600`}>{d.lastError ?? ""}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </div>
      ))}
    </div>
  );
}
