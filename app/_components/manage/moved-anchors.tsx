"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Links made before the manage page was split (`/manage#submissions`, `#webhooks`, …) land on the
 * section they name: on the setup page, an anchor of the operations page moves there, on arrival or
 * when the hash changes. The browser never sends the anchor, so only the page itself can.
 */
export function MovedAnchors({ to, anchors }: { to: string; anchors: string[] }) {
  const router = useRouter();
  useEffect(() => {
    const move = () => {
      const anchor = window.location.hash.slice(1);
      if (anchors.includes(anchor)) router.replace(`${to}#${anchor}`);
    };
    move();
    // An anchor followed on the page itself (a link, the address bar) changes the hash without loading it again.
    window.addEventListener("hashchange", move);
    return () => window.removeEventListener("hashchange", move);
  }, [router, to, anchors]);
  return null;
}
