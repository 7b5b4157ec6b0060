"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";
import { FormError } from "../field";
import { CELL, DataTable } from "../data-table";
import { LocalTime } from "../local-time";
import type { RegistrationView } from "@/lib/responses";

/** The requests to take part in a competition that admits by approval: approve or refuse each (docs/using.md, "Who may take part"). */
export function Registrations({ slug, registrations }: { slug: string; registrations: RegistrationView[] }) {
  const router = useRouter();
  const [error, setError] = useState<string>();

  async function decide(id: string, status: "approved" | "refused") {
    const result = await callApi(`/api/v1/competitions/${slug}/registrations/${id}`, { method: "PUT", json: { status } });
    setError(result.ok ? undefined : result.error.message);
    router.refresh();
  }

  return (
    <div className="space-y-3 text-sm">
      <FormError message={error} />
      {registrations.length === 0 ? (
        <p className="text-slate-600">No requests yet.</p>
      ) : (
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
