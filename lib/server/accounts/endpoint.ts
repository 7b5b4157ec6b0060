import "server-only";
import type { z } from "zod";
import type { Auth, Body, Endpoint } from "@/lib/openapi";
import { handleApi, readJson } from "@/lib/server/platform/api";
import { findApiUser, requireApiUser, requireTokenCreator } from "./auth";
import type { PublicUser, SignedIn } from "./users";

// One definition per endpoint: what the OpenAPI document says of it (lib/openapi.ts: its method,
// path, who may call it, its query and body schemas, its answers) and its handler, in one object.
// The route file exports the handler defineRoute returns, which carries the definition
// (`endpoint`); app/api/endpoints.ts collects them into the document. What the definition says is
// what the handler gets: the caller its `auth` asks for, the query and the JSON body parsed by the
// schemas the document shows, and the path's parameters by name.

type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

/** A path template's parameters: `/api/v1/competitions/{slug}/teams/{teamId}` → `{ slug: string; teamId: string }`. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

/** The caller an endpoint's auth gives its handler: the account (or null where signing in is optional), the Basic credentials' account, or nothing. */
type CallerOf<A extends Auth> = A extends "required" ? PublicUser : A extends "optional" ? PublicUser | null : A extends "basic" ? SignedIn : null;

/** What a handler receives: the request, the path's parameters, the caller, and the query and JSON body as their schemas parse them. */
export type RouteInput<P extends string, A extends Auth, Q, B> = {
  request: Request;
  params: PathParams<P>;
  user: CallerOf<A>;
  query: Q extends z.ZodType ? z.output<Q> : undefined;
  /** the JSON body parsed; a file body (csv, multipart, bytes) is read by the handler from `request` */
  body: B extends z.ZodType ? z.output<B> : undefined;
};

/** A route file's handler for one method, carrying its endpoint's definition. */
export type RouteHandler = ((request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>) & { endpoint: Endpoint };

async function callerOf(auth: Auth, request: Request): Promise<PublicUser | SignedIn | null> {
  if (auth === "required") return requireApiUser(request);
  if (auth === "optional") return findApiUser(request);
  if (auth === "basic") return requireTokenCreator(request); // HTTP Basic, or the web session from this site
  return null; // none, and the metrics token, which its handler checks
}

/**
 * An endpoint's handler from its definition: the caller is authenticated as `auth` says (401 where
 * required and missing), then the query is parsed by `query`, then a JSON `body` is read (415, 413,
 * 400 as readJson says) and parsed, each a 422 naming its fields; any error becomes the API's JSON
 * error (handleApi). `handler` gets the parsed input.
 */
export function defineRoute<const P extends string, const A extends Auth, Q extends z.ZodObject | undefined = undefined, B extends Body | undefined = undefined>(
  definition: Omit<Endpoint, "path" | "auth" | "query" | "body"> & { path: P; auth: A; query?: Q; body?: B },
  handler: (input: RouteInput<P, A, Q, B>) => Promise<Response>,
): RouteHandler {
  const endpoint = definition as Endpoint;
  const route = handleApi(async (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => {
    const user = await callerOf(endpoint.auth, request);
    const query = endpoint.query?.parse(Object.fromEntries(new URL(request.url).searchParams));
    const body = endpoint.body && typeof endpoint.body !== "string" ? endpoint.body.parse(await readJson(request)) : undefined;
    const params = ((await context?.params) ?? {}) as PathParams<P>;
    return handler({ request, params, user, query, body } as RouteInput<P, A, Q, B>);
  });
  return Object.assign(route, { endpoint });
}
