"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * A page the browser restores from its back/forward cache shows what it showed when it was left;
 * this re-renders it on the server at once (the session may have changed, the board moved on), so
 * Back is instant and then current. Rendered once, in the root layout.
 */
export function RefreshOnRestore() {
  const router = useRouter();
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => event.persisted && router.refresh();
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, [router]);
  return null;
}
