"use client";

import { useState } from "react";
import { callApi } from "./api-client";
import { BUTTON, NOTE } from "./tones";

/** One button that turns a kind of notification mail off (the mail's signed link is the proof: no sign-in), and what happened. */
export function Unsubscribe({ query, label }: { query: string; label: string }) {
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string }>();
  if (outcome)
    return (
      <p role={outcome.ok ? "status" : "alert"} className={outcome.ok ? "text-emerald-800" : NOTE.error}>
        {outcome.message}
      </p>
    );
  return (
    <div className="space-y-4">
      <p className="text-slate-700">Stop mail about {label}? Mail about your account itself (verification, password resets) still comes.</p>
      <button
        type="button"
        className={BUTTON.primary}
        onClick={async () => {
          const done = await callApi<{ label: string }>(`/api/v1/unsubscribe?${query}`, { method: "POST" });
          setOutcome(done.ok ? { ok: true, message: `You will get no more mail about ${done.data.label}.` } : { ok: false, message: done.error.message });
        }}
      >
        Unsubscribe
      </button>
    </div>
  );
}
