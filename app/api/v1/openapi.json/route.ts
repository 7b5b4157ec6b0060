// GET /api/v1/openapi.json – the API as OpenAPI 3.1 (lib/openapi.ts), for clients, generators and the reference page at /api-reference
import { handleApi, otherMethods } from "@/lib/server/platform/api";
import { openApiDocument } from "@/lib/openapi";

// Dynamic, not force-static: a static route's handlers get a request that cannot be read, and the
// methods this path lacks read it to answer their 405 (the document itself is built once per process).
export const dynamic = "force-dynamic";

export const GET = handleApi(async () => Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
