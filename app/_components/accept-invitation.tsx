"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "./api-client";

/** The button of the invitation page: accepts the invitation, then opens the competition's manage page. */
export function AcceptInvitation({ token }: { token: string }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function accept() {
    setPending(true);
    const result = await callApi<{ slug: string }>("/api/v1/organizer-invitations/accept", { method: "POST", json: { token } });
    setPending(false);
    if (!result.ok) return setError(result.error.message);
    router.push(`/competitions/${result.data.slug}/manage`);
  }

  return (
    <div className="space-y-3">
      {error && (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <button type="button" disabled={pending} onClick={accept} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60">
        {pending ? "Please wait…" : "Accept the invitation"}
      </button>
    </div>
  );
}
