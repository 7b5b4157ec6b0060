"use client";

import { useEffect } from "react";

/**
 * Links made before the manage page was split (`/manage#submissions`, `#webhooks`, …) land on the
 * section they name: on the setup page, an anchor of the operations page moves there, on arrival or
 * when the hash changes. The browser never sends the anchor, so only the page itself can.
 */
export function MovedAnchors({ to, anchors }: { to: string; anchors: string[] }) {
  useEffect(() => {
    const move = () => {
      const anchor = window.location.hash.slice(1);
      // A page load of its own, not the router's: a client-side replace asked for while the page
      // still hydrates can be dropped (seen under load), and such links are rare.
      if (anchors.includes(anchor)) window.location.replace(`${to}#${anchor}`);
    };
    move();
    // An anchor followed on the page itself (a link, the address bar) changes the hash without loading it again.
    window.addEventListener("hashchange", move);
    return () => window.removeEventListener("hashchange", move);
  }, [to, anchors]);
  return null;
}
