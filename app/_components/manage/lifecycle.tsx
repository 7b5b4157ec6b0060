"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { callApi } from "../api-client";

/** Publish (locks the solution and mechanism) and close (reveals the final standings). */
export function Lifecycle({ slug, status }: { slug: string; status: "draft" | "published" | "closed" }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function act(action: "publish" | "close", question: string) {
    if (!window.confirm(question)) return;
    setPending(true);
    const result = await callApi(`/api/v1/competitions/${slug}/${action}`, { method: "POST" });
    setPending(false);
    if (!result.ok) return setError(result.error.message);
    setError(undefined);
    router.refresh();
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      {status === "draft" && (
        <button
          type="button"
          disabled={pending}
          onClick={() => act("publish", "Publish now? The solution, correlation model and mechanism are locked from then on.")}
          className="rounded-md bg-emerald-600 px-4 py-2 font-medium text-white hover:bg-emerald-700 disabled:opacity-60"
        >
          Publish
        </button>
      )}
      {status === "published" && (
        <button
          type="button"
          disabled={pending}
          onClick={() => act("close", "Close the competition? Submissions stop and the final standings are revealed.")}
          className="rounded-md bg-slate-800 px-4 py-2 font-medium text-white hover:bg-slate-900 disabled:opacity-60"
        >
          Close competition
        </button>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
