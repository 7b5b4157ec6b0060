// GET /api/metrics – Prometheus metrics, for Authorization: Bearer $METRICS_TOKEN (404 when unset)
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { otherMethods } from "@/lib/server/platform/api";
import { metricsFor } from "@/lib/server/platform/metrics";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/metrics",
    tag: "Service",
    summary: "Prometheus metrics (404 when METRICS_TOKEN is unset)",
    who: "Authorization: Bearer $METRICS_TOKEN",
    auth: "metrics",
    ok: { 200: { description: "Prometheus text format", reply: { text: "the metrics" } } },
    errors: [404],
  },
  async ({ request }) => {
    const { body, contentType } = await metricsFor(request.headers.get("authorization"));
    return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
