// GET /api/v1/openapi.json – the API as OpenAPI 3.1 (lib/openapi.ts), for clients, generators and the reference page at /api-reference
// Its definition is in app/api/endpoints.ts, beside the list of every endpoint the document is built from.
import { openApiJson } from "../../endpoints";
import { otherMethods } from "@/lib/server/platform/api";

// Dynamic, not force-static: a static route's handlers get a request that cannot be read, and the
// methods this path lacks read it to answer their 405 (the document itself is built once per process).
export const dynamic = "force-dynamic";
export const GET = openApiJson;
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
