"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import { FormError } from "../field";
import type { Access } from "@/lib/validation/competitions";
import { CELL, DataTable } from "../data-table";
import { LocalTime } from "../local-time";
import type { RegistrationView } from "@/lib/responses";

/** Who may take part (editable after publishing too), and the requests to approve or refuse. */
export function AccessSettings({ slug, access, registrations }: { slug: string; access: Access; registrations: RegistrationView[] }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);

  async function save(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const domains = String(form.get("domains") ?? "")
      .split(/[\s,]+/)
      .filter(Boolean);
    setPending(true);
    const result = await callApi(`/api/v1/competitions/${slug}`, {
      method: "PATCH",
      json: { access: { requireVerifiedEmail: form.get("requireVerifiedEmail") === "on", allowedEmailDomains: domains, approval: form.get("approval") === "on" } },
    });
    setPending(false);
    setSaved(result.ok);
    setError(result.ok ? undefined : result.error.message);
    if (result.ok) router.refresh();
  }

  async function decide(id: string, status: "approved" | "refused") {
    const result = await callApi(`/api/v1/competitions/${slug}/registrations/${id}`, { method: "PUT", json: { status } });
    setError(result.ok ? undefined : result.error.message);
    router.refresh();
  }

  return (
    <div className="space-y-4">
      <form onSubmit={save} className="space-y-3 text-sm">
        <FormError message={error} />
        <label className="flex items-center gap-2">
          <input type="checkbox" name="requireVerifiedEmail" defaultChecked={access.requireVerifiedEmail} /> Verified email addresses only
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="approval" defaultChecked={access.approval} /> Organizers approve each participant
        </label>
        <div className="space-y-1">
          <label htmlFor="access-domains" className="block font-medium text-slate-700">
            Allowed email domains (subdomains included; empty: any)
          </label>
          <p id="access-domains-hint" className="text-slate-600">
            An address counts once its owner has verified it: anyone can type an address at any domain.
          </p>
          <input
            id="access-domains"
            name="domains"
            aria-describedby="access-domains-hint"
            defaultValue={access.allowedEmailDomains.join(", ")}
            placeholder="e.g. university.edu, lab.org"
            className="block w-full max-w-md rounded-md border border-slate-300 px-3 py-2"
          />
        </div>
        <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
          Save access rules
        </button>
        {saved && (
          <p role="status" className="text-emerald-700">
            Saved. They apply to teams created or joined from now on.
          </p>
        )}
      </form>
      {registrations.length > 0 && (
        <DataTable
          caption="Requests to take part"
          showCaption
          testId="registrations"
          columns={[{ label: "Person" }, { label: "Asked" }, { label: "Status" }, { label: "Decide", srOnly: true }]}
        >
          {registrations.map((r) => (
            <tr key={r.id}>
              <td className={CELL.list}>
                {r.user.name} <span className="text-slate-500">({r.user.email})</span>
              </td>
              <td className={CELL.list}>
                <LocalTime at={r.createdAt} />
              </td>
              <td className={CELL.list}>{r.status}</td>
              <td className={`${CELL.list} text-right`}>
                {r.status !== "approved" && (
                  <button
                    type="button"
                    onClick={() => decide(r.id, "approved")}
                    className="mr-2 rounded-md border border-emerald-300 px-2 py-1 text-emerald-800 hover:bg-emerald-50"
                    aria-label={`Approve ${r.user.name}`}
                  >
                    Approve
                  </button>
                )}
                {r.status !== "refused" && (
                  <button
                    type="button"
                    onClick={() => decide(r.id, "refused")}
                    className="rounded-md border border-red-200 px-2 py-1 text-red-700 hover:bg-red-50"
                    aria-label={`Refuse ${r.user.name}`}
                  >
                    Refuse
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
