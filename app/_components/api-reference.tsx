"use client";

import { useEffect, useRef } from "react";
import "swagger-ui-dist/swagger-ui.css";
import "./api-reference.css";

/**
 * Swagger UI on /api/v1/openapi.json, bundled with the app (the CSP allows no CDN) and loaded only on
 * this page. Without deep links: each operation's link sat inside its expand button, a control in a
 * control that keyboards and screen readers cannot tell apart (axe-core nested-interactive).
 */
export function ApiReference() {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let shown = true;
    const node = container.current;
    // Swagger UI leaves a parameter's list of values (a select) without a name: it is given its parameter's.
    const observer = new MutationObserver(() => {
      for (const select of node?.querySelectorAll("tr[data-param-name] select:not([aria-label])") ?? []) {
        select.setAttribute("aria-label", select.closest("tr")?.getAttribute("data-param-name") ?? "value");
      }
    });
    if (node) observer.observe(node, { childList: true, subtree: true });
    void import("swagger-ui-dist/swagger-ui-bundle.js").then(({ default: SwaggerUIBundle }) => {
      if (shown && node) SwaggerUIBundle({ url: "/api/v1/openapi.json", domNode: node, validatorUrl: null, deepLinking: false });
    });
    return () => {
      shown = false;
      observer.disconnect();
    };
  }, []);
  return <div ref={container} data-testid="api-reference" className="min-w-0 overflow-x-auto rounded-lg border border-slate-200 bg-white" />;
}
