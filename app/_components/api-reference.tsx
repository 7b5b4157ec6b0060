"use client";

import { useEffect, useRef } from "react";
import "swagger-ui-dist/swagger-ui.css";

/** Swagger UI on /api/v1/openapi.json, bundled with the app (the CSP allows no CDN) and loaded only on this page. */
export function ApiReference() {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let shown = true;
    void import("swagger-ui-dist/swagger-ui-bundle.js").then(({ default: SwaggerUIBundle }) => {
      if (shown && container.current) SwaggerUIBundle({ url: "/api/v1/openapi.json", domNode: container.current, validatorUrl: null, deepLinking: true });
    });
    return () => {
      shown = false;
    };
  }, []);
  return <div ref={container} data-testid="api-reference" className="rounded-lg border border-slate-200 bg-white" />;
}
