import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ENDPOINTS, openApiDocument, ROUTE_FILES } from "@/app/api/endpoints";
import type { CalibrationAnswer } from "@/lib/calibration/calibrate";
import type { Plan } from "@/lib/calibration/planner";
import type { CorrelationSummary } from "@/lib/calibration/resolve";
import type { AttackPreview } from "@/lib/experiments/preview";
import { ERROR_CODES, type attackPreviewSchema, type calibrationAnswerSchema, type correlationSummarySchema, type planSchema } from "@/lib/responses";

// The OpenAPI document (lib/openapi.ts, built from the route files' definitions by app/api/endpoints.ts)
// against OpenAPI 3.1's own schema, docs/api.md and the app's route files; and the answers whose types live beside the code that computes them, against their
// schemas here.

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const SLUG = "/api/v1/competitions/{slug}";

/**
 * The endpoints docs/api.md's tables name, as "METHOD path". A first cell lists them in backticks:
 * `METHOD path` (`…` stands for the competition's path, a query is left out), `METHOD` alone for the
 * path before it (or, followed by a slash, the path after it: `GET`/`DELETE …/x`), `/word` for the
 * path before it with its last segment replaced; bodies (`{…}`) are skipped.
 */
function documentedEndpoints(markdown: string): string[] {
  const endpoints: string[] = [];
  for (const line of markdown.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const cell = line.split(" | ")[0];
    const tokens = [...cell.matchAll(/`([^`]+)`(\/)?/g)].map((m) => ({ text: m[1], slash: m[2] === "/" }));
    let last: { method: string; path: string } | null = null;
    const pending: string[] = [];
    for (const { text, slash } of tokens) {
      const [method, rawPath] = text.split(" ");
      if (METHODS.includes(method) && rawPath && !rawPath.startsWith("/api/") && !rawPath.startsWith("…")) continue; // a static file (the CLI's package), not the API
      if (METHODS.includes(method) && rawPath) {
        const p = rawPath.replace("…", SLUG).replace(/\?.*$/, "");
        for (const m of [...pending.splice(0), method]) endpoints.push(`${m} ${p}`);
        last = { method, path: p };
      } else if (METHODS.includes(text)) {
        if (slash) pending.push(text);
        else if (last) endpoints.push(`${text} ${last.path}`);
      } else if (/^\/[\w-]+$/.test(text) && last) {
        endpoints.push(`${last.method} ${last.path.replace(/\/[^/]+$/, text)}`);
      }
    }
  }
  return endpoints;
}

/** The app's route handlers as "METHOD path": each route.ts under app/api and the methods it exports (next-auth's and the catch-all 404 aside). */
function routeFiles(): string[] {
  const endpoints: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name === "route.ts" && !full.includes("[...")) {
        const source = readFileSync(full, "utf8");
        const routePath = `/${path.relative("app", dir)}`.replace(/\[(\w+)\]/g, "{$1}");
        for (const [, method] of source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)) endpoints.push(`${method} ${routePath}`);
      }
    }
  };
  visit("app/api");
  return endpoints;
}

describe("the OpenAPI document", () => {
  const document = openApiDocument();

  it("is valid OpenAPI 3.1, and every schema in it compiles as JSON Schema 2020-12", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: "doc", $defs: (document as { components: { schemas: object } }).components.schemas });
    type Media = Record<string, { schema: object }>;
    type Operation = { parameters?: { name: string; schema: object }[]; requestBody?: { content: Media }; responses: Record<string, { content?: Media }> };
    const compile = (where: string, schema: object) =>
      expect(() => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"doc#/$defs/'))), where).not.toThrow();
    let compiled = 0;
    for (const [route, methods] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const where = `${method} ${route}`;
        for (const p of operation.parameters ?? []) compile(`${where} ${p.name}`, p.schema);
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) compile(`${where} body ${type}`, media.schema);
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const [type, media] of Object.entries(response.content ?? {})) compile(`${where} ${status} ${type}`, media.schema);
        }
        compiled++;
      }
    }
    expect(compiled).toBe(ENDPOINTS.length);
  });

  it("names its server, its licence and its tags, and files every operation under a declared tag", () => {
    const doc = document as {
      servers: { url: string }[];
      info: { license: { name: string } };
      tags: { name: string; description: string }[];
      paths: Record<string, Record<string, { tags: string[] }>>;
    };
    expect(doc.servers).toEqual([{ url: "/", description: "the Quiltboard instance that serves this document" }]);
    expect(doc.info.license.name).toBe("Proprietary");
    const declared = doc.tags.map((t) => t.name);
    expect(declared).toEqual(["Accounts", "Competitions", "Reveal", "Teams and submissions", "Viewing", "Service"]);
    const used = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((o) => o.tags));
    for (const tags of used) expect(tags.length === 1 && declared.includes(tags[0])).toBe(true);
    expect(new Set(used.flat())).toEqual(new Set(declared));
    expect(doc.paths["/api/v1/users"].post.tags).toEqual(["Accounts"]);
    expect(doc.paths[`${SLUG}/leaderboard`].get.tags).toEqual(["Viewing"]);
    expect(doc.paths["/api/health"].get.tags).toEqual(["Service"]);
  });

  it("lists 401 wherever a Bearer token is read, public GETs included, and nowhere else", () => {
    type Op = { security: object[]; responses: Record<string, unknown> };
    const paths = document.paths as Record<string, Record<string, Op>>;
    for (const { method, path: route, auth } of ENDPOINTS) {
      const listed = "401" in paths[route][method.toLowerCase()].responses;
      expect(listed, `${method} ${route}`).toBe(auth !== "none");
    }
    expect(paths[`${SLUG}/leaderboard`].get.responses).toHaveProperty("401");
    expect(paths["/api/v1/competitions"].get.responses).toHaveProperty("401");
    expect(paths["/api/v1/users"].post.responses).not.toHaveProperty("401");
  });

  it("says with each error status which codes it carries, from the one list the server answers with, and docs/api.md names each", () => {
    type Op = { responses: Record<string, { description: string }> };
    const paths = document.paths as Record<string, Record<string, Op>>;
    expect(paths[`${SLUG}/teams`].post.responses["403"].description).toMatch(
      /\(code `forbidden`, `email_unverified`, `domain_not_allowed`, `approval_required` or `identity_required`\)$/,
    );
    expect(paths[`${SLUG}/teams`].post.responses["422"].description).toMatch(/\(code `unprocessable_entity`\)$/);
    const errorSchema = (document.components as { schemas: Record<string, { properties: { error: { properties: { code: { enum: string[] } } } } }> }).schemas.Error;
    expect(errorSchema.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
    const api = readFileSync("docs/api.md", "utf8");
    expect(Object.keys(ERROR_CODES).filter((code) => !api.includes(`\`${code}\``))).toEqual([]);
  });

  it("marks a JSON body required exactly where the server refuses its absence", () => {
    type Op = { requestBody?: { required: boolean; content: Record<string, unknown> } };
    const paths = document.paths as Record<string, Record<string, Op>>;
    const optional: string[] = [];
    for (const [route, methods] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.requestBody) continue;
        if (!operation.requestBody.required) optional.push(`${method.toUpperCase()} ${route}`);
      }
    }
    // An absent body is read as {}: only these take it (publishing without acknowledgments, a PATCH or notification settings that change nothing).
    expect(optional.sort()).toEqual([`PATCH ${SLUG}`, `POST ${SLUG}/publish`, "PUT /api/v1/me/notifications"]);
  });

  it("has exactly the endpoints docs/api.md describes, and the app serves exactly those", () => {
    const documented = new Set(documentedEndpoints(readFileSync("docs/api.md", "utf8"))); // a row may describe another use of an endpoint (?sandbox=true)
    const inDocument = Object.entries(document.paths as Record<string, object>).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`));
    expect([...documented].sort()).toEqual([...inDocument].sort());
    expect([...routeFiles()].sort()).toEqual([...inDocument].sort());
    expect(ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort()).toEqual([...inDocument].sort());
  });

  it("is built from every route file (app/api/endpoints.ts lists exactly those there are), each method's definition naming its own method and path", () => {
    const visit = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? visit(path.join(dir, e.name)) : e.name === "route.ts" ? [dir] : []));
    const folders = visit("app/api")
      .map((dir) => path.relative("app/api", dir).split(path.sep).join("/"))
      .filter((dir) => !dir.includes("[..."));
    expect(Object.keys(ROUTE_FILES).sort()).toEqual(folders.sort());
    for (const [folder, exports] of Object.entries(ROUTE_FILES)) {
      for (const method of METHODS.filter((m) => m in exports)) {
        const endpoint = (exports[method] as { endpoint?: { method: string; path: string } }).endpoint;
        if (!endpoint) continue; // a method the file lacks: otherMethods' 405
        expect(endpoint.method, `${folder} ${method}`).toBe(method);
        expect(`/${path.posix.join("api", folder)}`.replace(/\[(\w+)\]/g, "{$1}"), `${folder} ${method}`).toBe(endpoint.path);
      }
    }
  });

  it("has every route file answer the methods it lacks (405 with Allow, through otherMethods) and OPTIONS", () => {
    const visit = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? visit(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : []));
    const files = visit("app/api").filter((f) => !f.includes("[...") && !f.includes(`${path.sep}auth${path.sep}`));
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      const own = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
      const others = /export const \{ ([A-Z, ]+) \} = otherMethods\(\{ ([A-Z, ]+) \}\);/.exec(source);
      expect(others, file).not.toBeNull();
      expect(others![2].split(", "), file).toEqual(own);
      expect(others![1].split(", "), file).toEqual([...METHODS.filter((m) => !own.includes(m)), "OPTIONS"]);
    }
  });

  it("reads docs/api.md's ways of listing several endpoints in one row", () => {
    const table = [
      "| `GET …/attachments`, `POST` (multipart `file`), `GET`/`DELETE …/attachments/{id}` | anyone | |",
      "| `POST …/teams/merge` `{inviteCode}`, `POST …/teams/merge-requests/{id}/accept`, `/decline`, `/cancel` | members | |",
      "| `POST …/submissions?sandbox=true`, `GET …/sandbox` | organizers | |",
      "| `GET /api/health` | anyone | |",
    ].join("\n");
    expect(documentedEndpoints(table)).toEqual([
      `GET ${SLUG}/attachments`,
      `POST ${SLUG}/attachments`,
      `GET ${SLUG}/attachments/{id}`,
      `DELETE ${SLUG}/attachments/{id}`,
      `POST ${SLUG}/teams/merge`,
      `POST ${SLUG}/teams/merge-requests/{id}/accept`,
      `POST ${SLUG}/teams/merge-requests/{id}/decline`,
      `POST ${SLUG}/teams/merge-requests/{id}/cancel`,
      `POST ${SLUG}/submissions`,
      `GET ${SLUG}/sandbox`,
      "GET /api/health",
    ]);
  });
});

// The answers the pure modules compute are described exactly as their own types say (each assignable
// to the other). A check of the compiler, not of vitest: npm test's typecheck step fails on a drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type ResponsesMatchTheirTypes = [
  Holds<Same<z.infer<typeof planSchema>, Plan>>,
  Holds<Same<z.infer<typeof correlationSummarySchema>, CorrelationSummary>>,
  Holds<Same<z.infer<typeof calibrationAnswerSchema>, CalibrationAnswer>>,
  Holds<Same<Omit<z.infer<typeof attackPreviewSchema>, "budget">, AttackPreview>>,
];
