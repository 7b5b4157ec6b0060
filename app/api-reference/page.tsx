import type { Metadata } from "next";
import { ApiReference } from "../_components/api-reference";

export const metadata: Metadata = { title: "API reference" };

/** The REST API's reference: Swagger UI, served from the app, reading GET /api/v1/openapi.json (docs/api.md). */
export default function ApiReferencePage() {
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API reference</h1>
        <p className="max-w-3xl text-sm text-slate-600">
          Every endpoint of the REST API with who may call it, its parameters and each answer, from the{" "}
          <a href="/api/v1/openapi.json" className="font-medium text-indigo-700 hover:underline">
            OpenAPI 3.1 document
          </a>
          . Authenticate with an API token from your account page (Authorize, bearer).
        </p>
      </div>
      <ApiReference />
    </div>
  );
}
