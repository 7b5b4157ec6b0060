// Security headers for every response. Next's App Router bootstraps with inline scripts, so
// script-src allows 'unsafe-inline' (per-request nonces would need a proxy on every page); all
// organizer text is rendered by React and react-markdown without raw HTML. Everything else is
// locked to this origin, and no page may be framed.
const csp = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: csp },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** @type {import("next").NextConfig} */
const config = {
  poweredByHeader: false,
  // The standalone server (the Docker image) carries only the files the server needs.
  output: "standalone",
  // One prom-client for the app and the HTTP preload (server/http-preload.mjs): required at run
  // time from node_modules rather than bundled, so both fill the same registry.
  serverExternalPackages: ["prom-client"],
  reactStrictMode: true,
  // Every browser gets its page's metadata in the head, before the body (Next calls that treating it
  // as an "HTML-limited bot"): the title is there for screen readers from the first byte, and it
  // stays after a client navigation to a page with generateMetadata when links do not prefetch
  // (streamed metadata dropped the title then; app/_components/link.tsx).
  htmlLimitedBots: /./,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default config;
