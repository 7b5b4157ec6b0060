// GET /api/metrics – Prometheus metrics, for Authorization: Bearer $METRICS_TOKEN (404 when unset)
import { handleApi, otherMethods } from "@/lib/server/platform/api";
import { metricsFor } from "@/lib/server/platform/metrics";

export const GET = handleApi(async (request) => {
  const { body, contentType } = await metricsFor(request.headers.get("authorization"));
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
