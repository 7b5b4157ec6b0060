"use client";

import { usePathname } from "next/navigation";
import { useEffect, useState, useSyncExternalStore } from "react";
import { callApi } from "./api-client";
import Link from "./link";
import { NOTE } from "./tones";

// The account just created in this tab and the page sign-up leads to, until the viewer leaves it.
// The root layout, where the notice sits, stays mounted across the sign-up form's navigation, so a
// store it subscribes to carries the news from one page to the next.
type SignedUp = { email: string; path: string };
let signedUp: SignedUp | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
function announce(next: SignedUp | null) {
  signedUp = next;
  listeners.forEach((listener) => listener());
}

/** Called by the sign-up form once the account exists, before it goes to `path`. */
export function rememberSignUp(email: string, path: string): void {
  announce({ email, path: new URL(path, window.location.href).pathname });
}

/**
 * On the page sign-up leads to (the account page, or the page that asked for an account): that the
 * account exists and a verification link went to its address, with a button that sends another
 * (POST /api/v1/me/verification, a few an hour: its refusal is shown as it comes; the account page
 * has its own, so there the notice has none). Gone once the viewer goes elsewhere.
 */
export function WelcomeNotice() {
  const news = useSyncExternalStore(
    subscribe,
    () => signedUp,
    () => null,
  );
  const path = usePathname();
  const [resent, setResent] = useState<string>();
  const here = news !== null && news.path === path;
  const [seen, setSeen] = useState(false);
  if (here && !seen) setSeen(true);
  useEffect(() => {
    if (seen && !here) announce(null);
  }, [seen, here]);
  if (!here) return null;
  const onAccountPage = path === "/account";
  return (
    <div role="status" className={`${NOTE.info} mb-6 space-y-2`} data-testid="welcome-notice">
      <p>
        Your account is ready. We sent a link to <strong className="break-all">{news.email}</strong> to verify your address: open it to finish (some competitions admit verified
        addresses only). No mail after a few minutes? Look in your spam folder, or send it again{onAccountPage ? " below" : ""}.
      </p>
      {!onAccountPage && (
        <p className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className="rounded-md border border-indigo-300 bg-white px-3 py-1.5 font-medium text-indigo-900 hover:bg-indigo-100"
            onClick={async () => {
              const sent = await callApi("/api/v1/me/verification", { method: "POST" });
              setResent(sent.ok ? "Sent again: check your mail." : sent.error.message);
            }}
          >
            Send the link again
          </button>
          {resent && <span data-testid="welcome-resent">{resent}</span>}
          <Link href="/account" className="font-medium underline">
            Your account
          </Link>
        </p>
      )}
    </div>
  );
}
