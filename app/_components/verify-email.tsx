"use client";

import Link from "./link";
import { useEffect, useState } from "react";
import { callApi } from "./api-client";
import { returnPath } from "./return-to";
import { LINK, NOTE } from "./tones";

type Outcome = { ok: true; message: string; next: { href: string; label: string } } | { ok: false; message: string };

/**
 * Verifies the address as soon as the verification link is opened in a browser (it runs here, so
 * a mail scanner that only fetches the link verifies nothing), and says how it went: on to where
 * sign-up started (kept by the sign-up form in this browser), or to the competitions. A used link
 * opened by someone whose address is verified already says just that.
 */
export function VerifyEmail({ token }: { token: string }) {
  const [outcome, setOutcome] = useState<Outcome>();
  useEffect(() => {
    void (async () => {
      const back = returnPath();
      const next = back ? { href: back, label: "Continue where you left off" } : { href: "/competitions", label: "Find a competition" };
      const verified = await callApi<{ email: string }>("/api/v1/email-verification", { method: "POST", json: { token } });
      if (verified.ok) {
        returnPath(true);
        return setOutcome({ ok: true, message: `Your address ${verified.data.email} is verified. Thank you!`, next });
      }
      const me = await callApi<{ email: string; emailVerified: boolean }>("/api/v1/me", { method: "GET" });
      if (me.ok && me.data.emailVerified) return setOutcome({ ok: true, message: `Your address ${me.data.email} is already verified.`, next });
      setOutcome({ ok: false, message: verified.error.message });
    })();
  }, [token]);
  if (!outcome) return <p className="text-slate-600">Verifying…</p>;
  return outcome.ok ? (
    <p role="status" className="text-emerald-800">
      {outcome.message}{" "}
      <Link href={outcome.next.href} className={LINK}>
        {outcome.next.label}
      </Link>
    </p>
  ) : (
    <p role="alert" className={NOTE.error}>
      {outcome.message} Send a new link from your{" "}
      <Link href="/account" className="font-medium underline">
        account page
      </Link>
      .
    </p>
  );
}
