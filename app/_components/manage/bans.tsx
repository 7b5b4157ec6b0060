"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import { Field, FormError } from "../field";
import type { BanView } from "@/lib/responses";

/** Ban a person from this competition by address, with a reason they are shown; lift a ban (docs/operating.md §3). */
export function Bans({ slug, bans }: { slug: string; bans: BanView[] }) {
  const router = useRouter();
  const [error, setError] = useState<string>();

  async function onBan(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const result = await callApi(`/api/v1/competitions/${slug}/bans`, { method: "POST", json: { email: data.get("email"), reason: data.get("reason") } });
    if (!result.ok) return setError(result.error.message);
    setError(undefined);
    form.reset();
    router.refresh();
  }

  async function lift(userId: string) {
    const result = await callApi(`/api/v1/competitions/${slug}/bans/${userId}`, { method: "DELETE" });
    setError(result.ok ? undefined : result.error.message);
    router.refresh();
  }

  return (
    <div className="space-y-3 text-sm">
      <FormError message={error} />
      <form onSubmit={onBan} className="flex flex-wrap items-end gap-3" aria-label="Ban a user">
        <Field label="Email" name="email" id="ban-email" type="email" required />
        <Field label="Reason (shown to them)" name="reason" id="ban-reason" required minLength={3} maxLength={500} />
        <button type="submit" className="rounded-md border border-red-300 px-4 py-1.5 font-medium text-red-800 hover:bg-red-50">
          Ban from this competition
        </button>
      </form>
      {bans.length > 0 && (
        <ul className="divide-y divide-slate-100" data-testid="bans">
          {bans.map((b) => (
            <li key={b.userId} className="flex items-center justify-between gap-3 py-1">
              <span>
                {b.name} <span className="text-slate-500">({b.email})</span>: {b.reason}
              </span>
              <button type="button" onClick={() => lift(b.userId)} className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100">
                Lift ban
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
