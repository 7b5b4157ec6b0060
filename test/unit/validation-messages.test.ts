import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ENDPOINTS, openApiDocument } from "@/app/api/endpoints";
import { readJson } from "@/lib/server/platform/api";
import { toErrorResponse } from "@/lib/server/platform/errors";
import { mechanismSchema } from "@/lib/validation/calibration";
import { createCompetitionSchema } from "@/lib/validation/competitions";
import { signUpSchema } from "@/lib/validation/accounts";
import { STOCK_PHRASES } from "@/test/support/messages";

// Every validation message in the app's words (lib/validation/messages.ts): the field, what it
// expects in words, what it got; never zod's or V8's stock phrases.

function messagesOf(schema: z.ZodType, body: unknown): { message: string; details: { path: string; message: string }[] } | null {
  const result = schema.safeParse(body);
  if (result.success) return null;
  const { status, body: answer } = toErrorResponse(result.error);
  expect(status).toBe(422);
  return { message: answer.error.message, details: answer.error.details as { path: string; message: string }[] };
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  const?: unknown;
  enum?: unknown[];
  $ref?: string;
};

/** Values of the wrong type (or out of range) for a property of this JSON Schema. */
function wrongValues(schema: JsonSchema): unknown[] {
  const types = [schema.type ?? []].flat();
  const wrong: unknown[] = [undefined, null, "x".repeat(70_000), -1e15, 1e15, 0.5, [], {}, true, "text", [{ a: 1 }], { nested: [1] }];
  if (types.includes("string")) wrong.push(5, "");
  if (types.includes("array")) wrong.push(["x"], [5], new Array(2000).fill(1e15));
  if (schema.const !== undefined || schema.enum) wrong.push("not-one-of-them", 7);
  return wrong;
}

describe("validation messages", () => {
  it("name the field, say what it expects in words and what it got", () => {
    const base = { slug: "power-spikes", title: "Power spikes", metric: { name: "accuracy" }, endsAt: "2027-01-31T23:59:59Z" };
    expect(messagesOf(createCompetitionSchema, { ...base, title: 5 })?.message).toBe("title: expected text of 3 to 120 characters, got 5");
    expect(messagesOf(createCompetitionSchema, { ...base, title: "x".repeat(200) })?.message).toBe("title: expected text of 3 to 120 characters, got 200 characters");
    expect(messagesOf(createCompetitionSchema, { ...base, maxTeamSize: 1000 })?.message).toBe("maxTeamSize: expected a whole number from 1 to 100, got 1000");
    expect(messagesOf(createCompetitionSchema, { ...base, lateSubmissions: "yes" })?.message).toBe('lateSubmissions: expected true or false, got "yes"');
    expect(messagesOf(createCompetitionSchema, { ...base, access: { allowedEmailDomains: "x.org" } })?.message).toBe(
      'access.allowedEmailDomains: expected a list of text values (at most 100 items), got "x.org"',
    );
    expect(messagesOf(createCompetitionSchema, { ...base, colour: "red" })?.message).toBe('unknown field "colour": leave it out');
    expect(messagesOf(signUpSchema, { email: "ann@example.com", password: "a long password" })?.message).toBe("name: expected text of 1 to 80 characters, the field is missing");
    expect(messagesOf(signUpSchema, { email: 4, password: "a long password", name: "Ann" })?.message).toBe("email: expected an email address, got 4");
    expect(messagesOf(mechanismSchema, { mode: "fast" })?.message).toBe('mode: expected one of "recommended", "guarantee" or "practical", got "fast"');
    expect(messagesOf(mechanismSchema, { mode: "practical", sigma: "a", threshold: 2, budget: 0 })?.details).toEqual([
      { path: "sigma", message: 'expected a number greater than 0, got "a"' },
      { path: "threshold", message: "expected a number greater than 0 and at most 1, got 2" },
      { path: "budget", message: "expected a whole number of at least 1, got 0" },
    ]);
    expect(messagesOf(mechanismSchema, [1])?.message).toBe("expected a JSON object, got a list of 1 item");
    // A schema's own words still win.
    expect(messagesOf(signUpSchema, { email: "ann@example.com", password: "short", name: "Ann" })?.message).toBe("password: use at least 10 characters");
  });

  it("never hold zod's or V8's stock phrases, for any documented JSON body sent wrong values", () => {
    const document = openApiDocument() as { components: { schemas: Record<string, JsonSchema> } };
    const resolve = (s: JsonSchema): JsonSchema => (s.$ref ? resolve(document.components.schemas[s.$ref.split("/").at(-1)!]) : s);
    let bodies = 0;
    let messages = 0;
    for (const operation of ENDPOINTS) {
      if (!operation.body || typeof operation.body === "string") continue;
      const schema = operation.body;
      const json = resolve(
        (openApiDocument() as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: JsonSchema }> } }>> }).paths[operation.path][
          operation.method.toLowerCase()
        ].requestBody.content["application/json"].schema,
      );
      // Each shape the body may take (a discriminated union's options), with each property (and each nested one) given each wrong value.
      const shapes = (json.anyOf ?? json.oneOf ?? [json]).map(resolve);
      const candidates: unknown[] = [null, 5, "text", [], [{}], true, {}, { unknownField: 1 }];
      for (const shape of shapes) {
        const fixed = Object.fromEntries(Object.entries(shape.properties ?? {}).flatMap(([name, p]) => (resolve(p).const !== undefined ? [[name, resolve(p).const]] : [])));
        for (const [name, property] of Object.entries(shape.properties ?? {})) {
          const p = resolve(property);
          for (const value of wrongValues(p)) candidates.push({ ...fixed, [name]: value });
          for (const [inner, innerProperty] of Object.entries(p.properties ?? {}))
            for (const value of wrongValues(resolve(innerProperty))) candidates.push({ ...fixed, [name]: { [inner]: value } });
          for (const option of (p.anyOf ?? p.oneOf ?? []).map(resolve)) {
            const innerFixed = Object.fromEntries(Object.entries(option.properties ?? {}).flatMap(([n, q]) => (resolve(q).const !== undefined ? [[n, resolve(q).const]] : [])));
            for (const [inner, innerProperty] of Object.entries(option.properties ?? {}))
              for (const value of wrongValues(resolve(innerProperty))) candidates.push({ ...fixed, [name]: { ...innerFixed, [inner]: value } });
          }
        }
      }
      for (const body of candidates) {
        const answer = messagesOf(schema, body);
        if (!answer) continue;
        bodies++;
        expect(answer.message, `${operation.method} ${operation.path} ${JSON.stringify(body)?.slice(0, 200)}`).not.toMatch(STOCK_PHRASES);
        for (const detail of answer.details) {
          messages++;
          expect(detail.message, `${operation.method} ${operation.path} ${JSON.stringify(body)?.slice(0, 200)}`).not.toMatch(STOCK_PHRASES);
          expect(detail.message.length).toBeGreaterThan(5);
        }
      }
    }
    // Every JSON body of the document was refused many ways (the figure grows with the API).
    expect(bodies).toBeGreaterThan(2000);
    expect(messages).toBeGreaterThan(bodies);
  });

  it("say where a body is not JSON, and what is wrong there, in the app's words", async () => {
    const read = (text: string) =>
      readJson(new Request("http://localhost/api/v1/x", { method: "POST", body: text, headers: { "content-type": "application/json" } })).then(
        () => null,
        (e: Error) => e.message,
      );
    expect(await read('{"name": "laptop",}')).toBe("the request body cannot be read as JSON: expected a field name in double quotes (no comma before } or ]) (line 1, column 19)");
    expect(await read('{\n  "name": "laptop"\n  "x": 1}')).toBe("the request body cannot be read as JSON: expected , or } after a value (line 3, column 3)");
    expect(await read("{name: 1}")).toBe("the request body cannot be read as JSON: expected a field name in double quotes, or } (line 1, column 2)");
    expect(await read("laptop")).toBe(
      'the request body cannot be read as JSON: unexpected "l": a value is a number, text in double quotes, true, false, null, an object or a list',
    );
    for (const text of ["{", '{"a":1', "[1,2", '"abc', '{"a":1} x', '{"a":"x\ny"}', '{"a" 1}', '{"a":tru}', "12e", "-", "{'a': 1}", '{"a":"\\q"}', "\u0000"]) {
      const message = await read(text);
      expect(message, text).toMatch(/^the request body cannot be read as JSON: /);
      expect(message, text).not.toMatch(STOCK_PHRASES);
    }
  });
});
