import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { demoSolutionCsv } from "@/prisma/demo-solution";
import { APP_URL, newApiUser, publishedCompetition, uniqueEmail } from "./helpers";
import { STOCK_PHRASES } from "@/test/support/messages";

// The contract's edges, from outside, on every path the served OpenAPI document lists: methods a
// path does not have, bad tokens where signing in is optional, bodies of the wrong media type and
// bodies of the wrong shape (docs/api.md, Conventions). test/e2e/setup.ts holds every answer here
// to the document too.

type Operation = { security: object[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } };
type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; anyOf?: JsonSchema[]; const?: unknown; $ref?: string };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, JsonSchema> } };

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

let document: Document;
let organizer: { authorization: string };
let draft: string;

/** A path of the document with its parameters filled: the organizer's draft, unknown ids. */
function concrete(template: string, slug = draft): string {
  return template.replace("{slug}", slug).replace(/\{\w+\}/g, () => randomUUID());
}

beforeAll(async () => {
  document = await (await fetch(`${APP_URL}/api/v1/openapi.json`)).json();
  const user = await newApiUser("contract");
  organizer = user.auth;
  draft = `c-${randomBytes(5).toString("hex")}`;
  await user.call("/api/v1/competitions", {
    json: { slug: draft, title: "Contract draft", metric: { name: "accuracy" }, endsAt: new Date(Date.now() + 10 * 86_400_000).toISOString() },
  });
  await user.call(`/api/v1/competitions/${draft}/solution`, { method: "PUT", csv: demoSolutionCsv() });
});

describe("the API's contract from outside", () => {
  it("answers every method a documented path does not have with the JSON 405 and an Allow header naming its own", async () => {
    let refused = 0;
    for (const [template, operations] of Object.entries(document.paths)) {
      const own = METHODS.filter((m) => operations[m.toLowerCase()]);
      const allow = [...own, ...(own.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
      const path = concrete(template);
      for (const method of METHODS.filter((m) => !own.includes(m))) {
        const answer = await fetch(`${APP_URL}${path}`, { method, headers: organizer });
        const body = await answer.json();
        expect([method, template, answer.status, answer.headers.get("allow")]).toEqual([method, template, 405, allow]);
        expect(body.error).toEqual({ code: "method_not_allowed", message: `${path} has no ${method}: its methods are ${own.join(", ")}` });
        refused++;
      }
      const options = await fetch(`${APP_URL}${path}`, { method: "OPTIONS" });
      expect([template, options.status, options.headers.get("allow")]).toEqual([template, 204, allow]);
    }
    expect(refused).toBe(Object.keys(document.paths).length * METHODS.length - Object.values(document.paths).reduce((n, ops) => n + Object.keys(ops).length, 0));
    expect(refused).toBeGreaterThan(50);
  });

  it("refuses a bad Bearer token with 401 on every endpoint that reads one, the public GETs too, as the document says", async () => {
    const { slug } = await publishedCompetition();
    let checked = 0;
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.security.some((s) => "bearer" in s)) continue;
        const answer = await fetch(`${APP_URL}${concrete(template, slug)}`, { method: method.toUpperCase(), headers: { authorization: "Bearer not-a-token" } });
        expect([method, template, answer.status]).toEqual([method, template, 401]);
        expect((await answer.json()).error.message).toBe("invalid or revoked API token");
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it("answers a body of the wrong media type with 415 naming the one expected, before reading it", async () => {
    const wrong: Record<string, [string, string]> = {
      "application/json": ["application/x-www-form-urlencoded", "name=laptop"],
      "text/csv": ["application/json", '{"id": 1}'],
      "multipart/form-data": ["text/csv", "id,label\n1,a\n"],
      "application/octet-stream": ["text/csv", "id,label\n1,a\n"],
    };
    const statuses: Record<string, number> = {};
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.requestBody || !operation.security.some((s) => "bearer" in s)) continue;
        const types = Object.keys(operation.requestBody.content);
        const [type, body] = wrong[types[0]];
        const answer = await fetch(`${APP_URL}${concrete(template)}`, { method: method.toUpperCase(), headers: { ...organizer, "content-type": type }, body });
        const error = (await answer.json()).error;
        statuses[`${method.toUpperCase()} ${template}`] = answer.status;
        if (answer.status === 415) expect(error.message).toMatch(new RegExp(`^the request body was sent as ${type}: send `));
      }
    }
    // Each endpoint refuses first what it refuses before reading any body: another team's or no team's
    // resources (404, 403, 409 on a draft that cannot be published or closed); everything else is a 415.
    const not415 = Object.entries(statuses).filter(([, status]) => status !== 415);
    expect(Object.values(statuses).filter((s) => s === 415).length).toBeGreaterThan(15);
    for (const [key, status] of not415) expect([key, [403, 404, 409].includes(status)]).toEqual([key, true]);
    const unauthenticated = await fetch(`${APP_URL}/api/v1/users`, { method: "POST", headers: { "content-type": "text/plain" }, body: '{"email": "a@example.com"}' });
    expect([unauthenticated.status, (await unauthenticated.json()).error.message]).toEqual([
      415,
      "the request body was sent as text/plain: send JSON with Content-Type: application/json (curl: --json)",
    ]);
    const csvAsForm = await fetch(`${APP_URL}/api/v1/competitions/${draft}/solution`, {
      method: "PUT",
      headers: { ...organizer, "content-type": "application/x-www-form-urlencoded" },
      body: "id,label",
    });
    expect(csvAsForm.status).toBe(415);
  });

  it("answers every documented JSON body sent wrong values in the app's words, never zod's or V8's", async () => {
    const resolve = (s: JsonSchema): JsonSchema => (s.$ref ? resolve(document.components.schemas[s.$ref.split("/").at(-1)!]) : s);
    let refused = 0;
    const reached = new Set<string>();
    // Wrong passwords count against the account's sign-in limit: an address of this test's own, no other test's.
    const nobody = uniqueEmail("nobody");
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const json = operation.requestBody?.content["application/json"];
        if (!json) continue;
        const schema = resolve(json.schema);
        const bodies: string[] = ["[1]", '"text"', "null", '{"unknownField": 1}', '{"a": 1,}', "{"];
        for (const shape of (schema.anyOf ?? [schema]).map(resolve)) {
          const fixed = Object.fromEntries(Object.entries(shape.properties ?? {}).flatMap(([n, p]) => (resolve(p).const !== undefined ? [[n, resolve(p).const]] : [])));
          for (const name of Object.keys(shape.properties ?? {})) for (const value of [null, 5, "text", [], {}, true]) bodies.push(JSON.stringify({ ...fixed, [name]: value }));
        }
        const headers = template.startsWith("/api/v1/tokens") ? { authorization: `Basic ${Buffer.from(`${nobody}:x`).toString("base64")}` } : organizer;
        for (const body of bodies) {
          const answer = await fetch(`${APP_URL}${concrete(template)}`, { method: method.toUpperCase(), headers: { ...headers, "content-type": "application/json" }, body });
          if (answer.status === 429) break; // the per-client limits of the public endpoints: enough of this one
          const error = (await answer.json()).error;
          if (!error) continue;
          expect(`${method} ${template} ${body}: ${error.message}`).not.toMatch(STOCK_PHRASES);
          for (const detail of Array.isArray(error.details) ? error.details : []) expect(`${method} ${template} ${body}: ${detail.message}`).not.toMatch(STOCK_PHRASES);
          if (answer.status === 422 || answer.status === 400) {
            refused++;
            reached.add(`${method.toUpperCase()} ${template}`);
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(300);
    // The bodies the server read (others are refused before: not the organizer's team, no such id).
    expect(reached.size).toBeGreaterThan(15);
  });
});
