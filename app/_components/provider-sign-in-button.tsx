"use client";

import { signIn } from "next-auth/react";

/** A button that signs in through provider `id` (a redirect to it and back to `callbackUrl`). */
export function ProviderSignInButton({ id, callbackUrl, className, children }: { id: string; callbackUrl: string; className: string; children: React.ReactNode }) {
  return (
    <button type="button" className={className} onClick={() => void signIn(id, { callbackUrl })}>
      {children}
    </button>
  );
}
