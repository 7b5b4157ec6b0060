// The REST API's contract in the end-to-end tests: every answer a test receives from an app under
// test is held to the OpenAPI document that app serves (GET /api/v1/openapi.json, lib/openapi.ts),
// by its method, its path's pattern and its status. An answer to a route the document does not
// have (other than the API's JSON 404), with a status it does not list, of a media type it does not
// list, or whose JSON body does not match the schema fails the test that received it.
// test/e2e/setup.ts installs it for every e2e test file: `fetch` (the REST client of
// scripts/support/rest-client.ts and any test's own requests) and the raw HTTP helpers check each answer.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { type Answered, checkRawAnswersWith } from "@/scripts/support/rest-client";

type Media = Record<string, { schema: object }>;
type Operation = { responses: Record<string, { content?: Media }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

type Route = { template: string; pattern: RegExp; literals: number; methods: Record<string, Operation> };

/** The document of one app (one origin), compiled: its routes, most specific first, and a validator per schema. */
class Contract {
  private readonly routes: Route[];
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<object, ValidateFunction>();

  constructor(document: Document) {
    this.routes = Object.entries(document.paths)
      .map(([template, methods]) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`),
        literals: template.split("/").filter((s) => s && !s.startsWith("{")).length,
        methods,
      }))
      .sort((a, b) => b.literals - a.literals);
    this.ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema({ $id: "contract", $defs: document.components.schemas });
  }

  private validator(schema: object): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"contract#/$defs/')));
      this.validators.set(schema, validate);
    }
    return validate;
  }

  /** Throws when the answer breaks the contract; `body` is the parsed JSON body, when the answer is JSON. */
  check(answer: Answered & { method: string; pathname: string }): void {
    const { method, pathname, status } = answer;
    const what = `${method} ${pathname} → ${status}`;
    // The most specific path that matches serves the request, as the app's router picks it (…/teams/join before …/teams/{teamId}).
    const path = this.routes.find((r) => r.pattern.test(pathname));
    const route = path?.methods[method.toLowerCase()] ? path : undefined;
    const mediaType = (answer.contentType ?? "").split(";")[0].trim().toLowerCase();
    if (!route && path && method !== "HEAD") {
      // A method the path does not have: the API's JSON 405, with Allow naming the path's own methods (HEAD with GET, and OPTIONS); OPTIONS: 204 with that Allow.
      const own = ["get", "post", "put", "patch", "delete"].filter((m) => path.methods[m]).map((m) => m.toUpperCase());
      const allow = [...own, ...(own.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
      if (method === "OPTIONS") {
        if (status !== 204 || answer.allow !== allow) throw new Error(`${what} (Allow: ${answer.allow}): OPTIONS ${path.template} must answer 204 with Allow: ${allow}`);
        return;
      }
      if (status !== 405 || mediaType !== "application/json" || answer.allow !== allow)
        throw new Error(
          `${what} (${mediaType || "no body"}, Allow: ${answer.allow}): ${path.template} has no ${method}, so the answer must be the API's JSON 405 with Allow: ${allow}`,
        );
      const validate = this.validator({ $ref: "#/components/schemas/Error" });
      if (!validate(answer.body)) throw new Error(`${what}: the 405's body is not the API's error: ${JSON.stringify(answer.body).slice(0, 300)}`);
      return;
    }
    if (!route) {
      // Anything the API does not have is its JSON 404 (app/api/v1/[...path]); nothing else may answer.
      if (status === 404 && mediaType === "application/json") return;
      throw new Error(`the API answered ${what}, but the OpenAPI document has no ${method} ${pathname}`);
    }
    const response = route.methods[method.toLowerCase()].responses[String(status)];
    if (!response) throw new Error(`${what}: the OpenAPI document lists no ${status} for ${method} ${route.template}`);
    const content = response.content ?? {};
    if (!response.content && !mediaType) return; // an answer without a body (302, 304), as documented
    if (!content[mediaType] && !(content["*/*"] && mediaType))
      throw new Error(`${what}: answered as ${mediaType || "nothing"}, the OpenAPI document says ${Object.keys(content).join(" or ") || "no body"}`);
    if (mediaType !== "application/json" || !content[mediaType]) return;
    const validate = this.validator(content[mediaType].schema);
    if (!validate(answer.body)) {
      const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
      throw new Error(`${what} does not match ${method} ${route.template}'s ${status} schema: ${problems.slice(0, 5).join("; ")}\n${JSON.stringify(answer.body).slice(0, 1000)}`);
    }
  }
}

const contracts = new Map<string, Promise<Contract>>();
let originalFetch: typeof fetch | undefined;

/** The contract of the app at `origin`: its document, read once (with the unchecked fetch). */
function contractOf(origin: string): Promise<Contract> {
  let contract = contracts.get(origin);
  if (!contract) {
    contract = (originalFetch ?? fetch)(`${origin}/api/v1/openapi.json`).then(async (r) => {
      if (!r.ok) throw new Error(`${origin}/api/v1/openapi.json answered ${r.status}`);
      return new Contract((await r.json()) as Document);
    });
    contracts.set(origin, contract);
  }
  return contract;
}

/** Whether an address is the API of a local app under test (its pages, next-auth's routes and other hosts are not the contract's). */
function isApi(url: URL): boolean {
  return ["localhost", "127.0.0.1"].includes(url.hostname) && url.pathname.startsWith("/api/") && !url.pathname.startsWith("/api/auth/");
}

/** Holds one answer to the contract (no-op before `installContract`, and for what is not the API). */
export async function checkAnswer(url: string | URL, method: string, answer: Answered): Promise<void> {
  const parsed = new URL(url);
  if (!originalFetch || !isApi(parsed)) return;
  (await contractOf(parsed.origin)).check({ ...answer, method: method.toUpperCase(), pathname: parsed.pathname });
}

/** Checks every answer `fetch` receives from now on (e2e tests: test/e2e/setup.ts). */
export function installContract(): void {
  if (originalFetch) return;
  const unchecked = globalThis.fetch;
  originalFetch = unchecked;
  checkRawAnswersWith(checkAnswer);
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await unchecked(input, init);
    const url = typeof input === "string" || input instanceof URL ? input : input.url;
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const contentType = response.headers.get("content-type");
    const json = (contentType ?? "").toLowerCase().startsWith("application/json");
    const body = json && method.toUpperCase() !== "HEAD" ? await response.clone().json() : undefined;
    await checkAnswer(url, method, { status: response.status, contentType, body, allow: response.headers.get("allow") });
    return response;
  };
}
