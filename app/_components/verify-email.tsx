"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { callApi } from "./api-client";

/**
 * Verifies the address as soon as the verification link is opened in a browser (it runs here, so
 * a mail scanner that only fetches the link verifies nothing), and says how it went.
 */
export function VerifyEmail({ token }: { token: string }) {
  const [state, setState] = useState<{ done: boolean; ok?: boolean; message?: string }>({ done: false });
  useEffect(() => {
    void callApi<{ email: string }>("/api/v1/email-verification", { method: "POST", json: { token } }).then((r) =>
      setState(r.ok ? { done: true, ok: true, message: `Your address ${r.data.email} is verified. Thank you!` } : { done: true, ok: false, message: r.error.message }),
    );
  }, [token]);
  if (!state.done) return <p className="text-slate-600">Verifying…</p>;
  return state.ok ? (
    <p role="status" className="text-emerald-700">
      {state.message}{" "}
      <Link href="/competitions" className="font-medium text-indigo-700 hover:underline">
        Find a competition
      </Link>
    </p>
  ) : (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
      {state.message}. Send a new link from your{" "}
      <Link href="/account" className="font-medium underline">
        account page
      </Link>
      .
    </p>
  );
}
