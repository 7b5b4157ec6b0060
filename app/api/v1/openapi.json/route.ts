// GET /api/v1/openapi.json – the API as OpenAPI 3.1 (lib/openapi.ts), for clients, generators and the reference page at /api-reference
import { handleApi } from "@/lib/server/platform/api";
import { openApiDocument } from "@/lib/openapi";

export const dynamic = "force-static";

export const GET = handleApi(async () => Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } }));
