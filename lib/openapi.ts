// The REST API as OpenAPI 3.1 (served at GET /api/v1/openapi.json, read by the reference page at
// /api-reference), built from the endpoints' own definitions (each route file's defineRoute,
// lib/server/accounts/endpoint.ts; app/api/endpoints.ts lists them): every endpoint of docs/api.md
// with who may call it, its parameters and request body (the zod schemas of lib/validation, which
// its handler parses input with), and each answer's status and body (the zod schemas of
// lib/responses.ts, as the server writes them). test/unit/openapi.test.ts holds it to docs/api.md and
// to the app's route files and validates it against OpenAPI 3.1; the end-to-end tests hold every
// answer they receive to it (test/support/contract.ts).
import { z } from "zod";
import { ERROR_CODES, errorBodySchema } from "./responses";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call an endpoint: anyone (`none`), anyone with the answer depending on who asks
 * (`optional`), a signed-in caller (`required`: a token or the web session), HTTP Basic
 * credentials or the web session (creating a token), or the metrics token.
 */
export type Auth = "none" | "optional" | "required" | "basic" | "metrics";

/** What a request sends: a JSON body, a CSV file (as the body, or as the multipart field `file`), or any file as the multipart field `file`. */
export type Body = z.ZodType | "csv-or-multipart" | "csv" | "multipart" | "bytes";

/** What an answer holds: a JSON body, a CSV file, another file, plain text, or (null) nothing of note. */
export type Reply = z.ZodType | { csv: string } | { file: string; mediaType?: string } | { text: string } | { nothing: string };

export type Operation = {
  summary: string;
  /** who may call it, in docs/api.md's words */
  who: string;
  auth: Auth;
  query?: z.ZodObject;
  headers?: Record<string, string>;
  body?: Body;
  /** the answers that succeed, by status: what they hold */
  ok: Record<number, { description: string; reply: Reply; alternatives?: Reply[] }>;
  /** the error statuses it may answer besides those every endpoint may (503) and those its auth, path and body bring */
  errors?: number[];
};

/** The document's tags: docs/api.md's groups of endpoints, each operation in one. */
const TAGS = {
  Accounts: "Signing up, API tokens, the caller's account, email verification and password resets",
  Competitions: "Creating, configuring, publishing and closing a competition; its organizers, registrations, data files, health and audit",
  Reveal: "A close anyone can verify: the solution, the mechanism's secret and every answer, once the organizers reveal them",
  "Teams and submissions": "Teams, merges, submissions and final selections; the organizers' sandbox, disqualifications and bans",
  Viewing: "The live, late and final leaderboards, team pages, the calibration planner and this document",
  Service: "Health and metrics, outside /api/v1",
} as const;

export type Tag = keyof typeof TAGS;

/**
 * An endpoint as the document describes it: its method and path (an OpenAPI template: `{slug}`) and
 * its group, with the operation. Each route file's handlers carry theirs (lib/server/accounts/endpoint.ts
 * defineRoute), and app/api/endpoints.ts collects them.
 */
export type Endpoint = Operation & { method: Method; path: string; tag: Tag };

const ERRORS: Record<number, string> = {
  400: "the body is not valid JSON, or the client stopped sending it",
  401: "no valid credentials: none where they are required, or a Bearer token that is invalid or revoked (also where signing in is optional)",
  403: "not allowed (also a write with the web session from another site; for taking part: email_unverified, domain_not_allowed, identity_required, approval_required)",
  404: "no such competition (drafts are not revealed), or no such resource in it",
  408: "the body arrived too slowly",
  409: "the state does not allow it; the message names the rule",
  413: "the body is larger than allowed, or a data file would pass the competition's or the account's bound (the message names it and what is taken)",
  415: "the body's Content-Type is not one this endpoint reads (the message says which: application/json, text/csv, multipart/form-data or application/octet-stream)",
  416: "the range asked starts past the file's end, or asks for the last bytes of an empty file (Content-Range: bytes */size says its size)",
  422: "invalid input: `details` lists each problem with its field (of the body, the query or the path) or its CSV line",
  429: "too many requests, or no submission left today; Retry-After says when to come back",
  503: "the database is unavailable, the calculation queue is full, or the server reads as many uploads as it can; nothing was changed, Retry-After says when to try again",
  507: "the file store's disk would fall below the free space the server keeps (QUILTBOARD_FILES_FREE_BYTES); nothing was written",
};

/** The error codes an answer of `status` carries (lib/responses.ts ERROR_CODES), as the document says them. */
function codesOf(status: number): string {
  const codes = Object.entries(ERROR_CODES)
    .filter(([, s]) => s === status)
    .map(([code]) => `\`${code}\``);
  return codes.length > 1 ? `${codes.slice(0, -1).join(", ")} or ${codes.at(-1)}` : codes[0];
}

/** The statuses an operation may answer with an error body: its own, and those its auth, path and body bring. */
export function errorStatuses(operation: Endpoint): number[] {
  const { path } = operation;
  const statuses = new Set([...(operation.errors ?? []), 503]);
  if (operation.auth !== "none") statuses.add(401); // where signing in is optional, a bad Bearer token is still refused
  if (operation.auth === "required" && operation.method !== "GET") statuses.add(403); // a write with the web session from another site
  if (path.includes("{")) [404, 422].forEach((s) => statuses.add(s)); // 422: a path parameter holding a NUL
  if (operation.query) statuses.add(422);
  if (operation.body) [400, 408, 413, 415, 422].forEach((s) => statuses.add(s));
  return [...statuses].sort((a, b) => a - b);
}

/** The security requirements of each kind of auth (components.securitySchemes). */
const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  none: [],
  optional: [{}, { bearer: [] }, { session: [] }],
  required: [{ bearer: [] }, { session: [] }],
  basic: [{ basic: [] }, { session: [] }],
  metrics: [{ metrics: [] }],
};

type JsonSchema = Record<string, unknown>;

/**
 * A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): requests as they are parsed (`input`),
 * answers as they are written (`output`). Schemas named with `.meta({id})` become components, shared
 * by reference; a date read from a string is a date-time string.
 */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    unrepresentable: ({ zodSchema }) => (zodSchema._zod.def.type === "date" ? { type: "string", format: "date-time" } : "throw"),
  }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const { $schema, $defs, ...rest } = converted;
  void $schema;
  for (const [id, def] of Object.entries($defs ?? {})) {
    const known = components[id];
    if (known && JSON.stringify(known) !== JSON.stringify(def)) throw new Error(`the schema ${id} converts differently in two places (input and output?)`);
    components[id] = def;
  }
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', '"#/components/schemas/'));
}

function content(reply: Reply, components: Record<string, JsonSchema>): Record<string, { schema: JsonSchema }> {
  if ("csv" in reply) return { "text/csv": { schema: { type: "string", description: reply.csv } } };
  if ("file" in reply) {
    const type = reply.mediaType ?? "application/octet-stream";
    return { [type]: { schema: { type: "string", ...(type === "*/*" ? {} : { contentMediaType: type }), description: reply.file } } };
  }
  if ("text" in reply) return { "text/plain": { schema: { type: "string", description: reply.text } } };
  if ("nothing" in reply) return {};
  return { "application/json": { schema: jsonSchemaOf(reply as z.ZodType, "output", components) } };
}

/** The answers' media types and schemas: one per media type, `anyOf` where an endpoint answers one of several JSON bodies. */
function replies(main: Reply, alternatives: Reply[], components: Record<string, JsonSchema>): Record<string, { schema: JsonSchema }> {
  const merged: Record<string, { schema: JsonSchema }> = {};
  for (const reply of [main, ...alternatives]) {
    for (const [type, media] of Object.entries(content(reply, components))) {
      merged[type] = merged[type] ? { schema: { anyOf: [...((merged[type].schema.anyOf as JsonSchema[] | undefined) ?? [merged[type].schema]), media.schema] } } : media;
    }
  }
  return merged;
}

function requestBody(body: Body, components: Record<string, JsonSchema>): JsonSchema {
  const csv = { "text/csv": { schema: { type: "string", description: "the CSV file" } } };
  const multipart = {
    "multipart/form-data": {
      schema: {
        type: "object",
        properties: { file: { type: "string", contentMediaType: "application/octet-stream" }, description: { type: "string", maxLength: 500 } },
        required: ["file"],
      },
    },
  };
  if (body === "csv") return { required: true, content: csv };
  if (body === "multipart") return { required: true, content: multipart };
  if (body === "csv-or-multipart") return { required: true, content: { ...csv, ...multipart } };
  if (body === "bytes")
    return {
      required: true,
      content: { "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream", description: "the part's bytes" } } },
    };
  // A JSON body is required unless the server takes its absence (read as {}) as a valid request.
  return { required: !body.safeParse({}).success, content: { "application/json": { schema: jsonSchemaOf(body, "input", components) } } };
}

const TAG_ORDER = Object.keys(TAGS);
const METHOD_ORDER: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The OpenAPI 3.1 document of the API (docs/api.md) with these endpoints: grouped by tag in TAGS'
 * order, then by path, then by method. Throws when two endpoints claim the same method and path.
 */
export function buildOpenApiDocument(endpoints: readonly Endpoint[]): JsonSchema {
  const seen = new Set<string>();
  for (const { method, path } of endpoints) {
    if (seen.has(`${method} ${path}`)) throw new Error(`two endpoints are ${method} ${path}`);
    seen.add(`${method} ${path}`);
  }
  const sorted = [...endpoints].sort(
    (a, b) =>
      TAG_ORDER.indexOf(a.tag) - TAG_ORDER.indexOf(b.tag) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const retryAfter = { "Retry-After": { description: "seconds to wait before trying again", schema: { type: "integer" } } };
  for (const operation of sorted) {
    const { method, path } = operation;
    const parameters: JsonSchema[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    if (operation.query) {
      const query = jsonSchemaOf(operation.query, "input", components) as { properties: Record<string, JsonSchema>; required?: string[] };
      for (const [name, schema] of Object.entries(query.properties)) parameters.push({ name, in: "query", required: query.required?.includes(name) ?? false, schema });
    }
    for (const [name, description] of Object.entries(operation.headers ?? {}))
      parameters.push({ name, in: "header", required: false, description, schema: { type: "string", minLength: 1, maxLength: 200 } });
    const responses: Record<string, JsonSchema> = {};
    for (const [status, ok] of Object.entries(operation.ok)) {
      const answers = replies(ok.reply, ok.alternatives ?? [], components);
      responses[status] = { description: ok.description, ...(Object.keys(answers).length ? { content: answers } : {}) };
    }
    for (const status of errorStatuses(operation)) {
      responses[status] = {
        description: `${ERRORS[status]} (code ${codesOf(status)})`,
        ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      };
    }
    (paths[path] ??= {})[method.toLowerCase()] = {
      operationId: `${method.toLowerCase()}${path.replace(/\{(\w+)\}/g, "By-$1").replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
      summary: operation.summary,
      description: `Who: ${operation.who}.`,
      tags: [operation.tag],
      security: SECURITY[operation.auth],
      ...(parameters.length ? { parameters } : {}),
      ...(operation.body ? { requestBody: requestBody(operation.body, components) } : {}),
      responses,
    };
  }
  jsonSchemaOf(errorBodySchema, "output", components);
  return {
    openapi: "3.1.0",
    info: {
      title: "Quiltboard",
      version: "1",
      // The repository grants no licence (no LICENSE file): the API is proprietary until its owners choose one.
      license: { name: "Proprietary" },
      summary: "A Kaggle-style competition platform whose leaderboard cannot be overfit",
      description:
        "The REST API (docs/api.md). JSON in and out, except CSV uploads and exports. Authenticate with `Authorization: Bearer <token>` (tokens from POST /api/v1/tokens) or the web session's cookie; every error is `{error: {code, message, details?}}`.",
    },
    // Relative to the document's own address: whichever host serves it is the API's server.
    servers: [{ url: "/", description: "the Quiltboard instance that serves this document" }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "a personal API token (POST /api/v1/tokens or the account page)" },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "next-auth.session-token",
          description: "the web session (writes must come from this site); over HTTPS the cookie is __Secure-next-auth.session-token",
        },
        basic: { type: "http", scheme: "basic", description: "email:password, to create a token" },
        metrics: { type: "http", scheme: "bearer", description: "$METRICS_TOKEN" },
      },
    },
  };
}
