"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import type { OrganizersView } from "@/lib/responses";

/**
 * The organizers of a competition, the creator first, with a button to remove each co-organizer
 * for the creator (and admins), the pending invitations with a button to withdraw each, and the form
 * that invites an address (docs/api.md, Organizers): the invitee becomes an organizer when they
 * accept the mailed link.
 */
export function Organizers({ slug, view }: { slug: string; view: OrganizersView }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();

  async function send(path: string, init: { method: "POST" | "DELETE"; json?: unknown }, done: string): Promise<boolean> {
    const result = await callApi(`/api/v1/competitions/${slug}/organizers${path}`, init);
    setMessage(result.ok ? { ok: true, text: done } : { ok: false, text: result.error.message });
    if (result.ok) router.refresh();
    return result.ok;
  }

  async function onInvite(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const email = String(new FormData(form).get("email"));
    if (await send("", { method: "POST", json: { email } }, `Invitation sent to ${email}: they become an organizer when they accept it.`)) form.reset();
  }

  const button = "rounded-md border border-red-200 px-2 py-0.5 text-red-700 hover:bg-red-50";
  return (
    <div className="space-y-4">
      <ul className="space-y-1 text-sm" data-testid="organizers">
        {view.organizers.map((o) => (
          <li key={o.userId} className="flex flex-wrap items-center gap-2">
            <span className="flex-1">
              {o.name}{" "}
              <span className="text-slate-500">
                ({o.email}
                {o.creator ? ", creator" : ""})
              </span>
            </span>
            {view.mayRemove && !o.creator && (
              <button
                type="button"
                className={button}
                aria-label={`Remove ${o.name} as organizer`}
                onClick={() =>
                  window.confirm(`Remove ${o.name} as organizer? They keep having seen the raw scores, so they still cannot compete here.`) &&
                  send(`/${o.userId}`, { method: "DELETE" }, `${o.name} is no longer an organizer.`)
                }
              >
                Remove
              </button>
            )}
          </li>
        ))}
        {view.invitations.map((i) => (
          <li key={i.id} className="flex flex-wrap items-center gap-2 text-slate-600">
            <span className="flex-1">
              {i.email}{" "}
              <span className="text-slate-500">
                (invited by {i.invitedBy}, until {i.expiresAt.slice(0, 10)})
              </span>
            </span>
            <button
              type="button"
              className={button}
              aria-label={`Withdraw the invitation of ${i.email}`}
              onClick={() => send(`/invitations/${i.id}`, { method: "DELETE" }, "Invitation withdrawn.")}
            >
              Withdraw
            </button>
          </li>
        ))}
      </ul>
      <form onSubmit={onInvite} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <label className="block flex-1 text-sm">
          <span className="font-medium text-slate-700">Invite a co-organizer by email</span>
          <input name="email" type="email" required className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2" />
        </label>
        <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-100">
          Invite
        </button>
      </form>
      {message && (
        <p role={message.ok ? "status" : "alert"} className={`text-sm ${message.ok ? "text-emerald-700" : "text-red-700"}`}>
          {message.text}
        </p>
      )}
    </div>
  );
}
