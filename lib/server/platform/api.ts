import "server-only";
import { NextResponse } from "next/server";
import { env } from "./env";
import { AppError, toErrorResponse } from "./errors";
import { hasNul, NUL_MESSAGE } from "@/lib/validation/text";

/** Largest JSON body the API reads (larger gets 413 before it is parsed). */
const MAX_JSON_BYTES = 1024 * 1024;

/** Requests whose body was read to its end (by `limitedBody`). */
const readToEnd = new WeakSet<Request>();

/**
 * Wraps a route handler: any thrown error becomes the API's JSON error with its status, and a
 * Retry-After where waiting helps. An error answered before the body was read to its end (a file
 * rejected at a bad line, a body past its limit) closes the connection: the rest of the body is
 * never read, so the connection cannot carry another request.
 */
export function handleApi<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      await refuseNulInPath(context);
      return await handler(request, context);
    } catch (error) {
      const { status, body } = toErrorResponse(error);
      const retryAfter = status === 503 ? 5 : (body.error.details as { retryAfter?: number } | undefined)?.retryAfter;
      const headers: Record<string, string> = retryAfter ? { "retry-after": String(retryAfter) } : {};
      if (error instanceof MethodNotAllowed) headers.allow = error.allow;
      if (request.body && !readToEnd.has(request)) headers.connection = "close";
      return NextResponse.json(body, { status, headers });
    }
  };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

/** 405: the path exists, the method is not one of its own; `allow` is the answer's Allow header. */
class MethodNotAllowed extends AppError {
  constructor(
    method: string,
    pathname: string,
    own: readonly string[],
    readonly allow: string,
  ) {
    super("method_not_allowed", `${pathname} has no ${method}: its methods are ${own.join(", ")}`);
  }
}

/**
 * The handlers of the methods a route file does not have: each answers 405 with the API's JSON
 * error and an Allow header naming the route's methods (HEAD with GET, and OPTIONS, which answers
 * 204 with the same header). Next.js would answer them itself with an empty 405 and no Allow; a
 * route file exports these beside its own: `export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });`.
 */
export function otherMethods<H extends Partial<Record<Method, unknown>>>(handlers: H): Record<Exclude<Method, keyof H> | "OPTIONS", (request: Request) => Promise<Response>> {
  const own = METHODS.filter((m) => m in handlers);
  const allow = [...own, ...(own.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const refuse = handleApi(async (request: Request) => {
    throw new MethodNotAllowed(request.method, new URL(request.url).pathname, own, allow);
  });
  const others = Object.fromEntries(METHODS.filter((m) => !own.includes(m)).map((m) => [m, refuse]));
  return { ...others, OPTIONS: async () => new Response(null, { status: 204, headers: { allow } }) } as Record<
    Exclude<Method, keyof H> | "OPTIONS",
    (request: Request) => Promise<Response>
  >;
}

/**
 * 422 naming the first path parameter that holds a NUL (`/competitions/a%00b`): no row has one,
 * and the database refuses to look for it. The other places text comes from (JSON bodies, query
 * strings, form fields) are parsed by lib/validation's schemas, whose strings refuse it too.
 */
async function refuseNulInPath(context: unknown): Promise<void> {
  const params: Record<string, string | string[]> = (await (context as { params?: Promise<Record<string, string | string[]>> } | undefined)?.params) ?? {};
  for (const [name, value] of Object.entries(params)) {
    if ([value].flat().some(hasNul)) throw new AppError("unprocessable_entity", `${name}: ${NUL_MESSAGE}`, [{ path: name, message: NUL_MESSAGE }]);
  }
}

/**
 * How slowly a body may arrive: every `seconds` the server spends waiting for it must bring at least
 * `seconds × rate` bytes (or the body's end). Only the time spent waiting for the client counts, not
 * the server's own work between reads nor the moments its event loop was busy, and nothing carries
 * over from one window to the next: a client cannot bank a fast start and then trickle.
 */
export type Pace = { seconds: number; rate: number };

/**
 * Any request body: 20 s to bring 20 × QUILTBOARD_BODY_MIN_RATE bytes (500 a second by default). A
 * client on a slow line keeps going; one that trickles a byte every few seconds to hold the request
 * open is cut off with 408.
 */
const bodyPace = (): Pace => ({ seconds: 20, rate: env().QUILTBOARD_BODY_MIN_RATE });

/**
 * An upload while it holds its upload slots (platform/uploads.ts): 3 s to bring 3 ×
 * QUILTBOARD_UPLOAD_MIN_RATE bytes (64 KiB a second by default), so that a slot is held only by a body
 * arriving at a real rate; one that falls behind is cut off and its slots go to the next upload.
 */
export const uploadPace = (): Pace => ({ seconds: 3, rate: env().QUILTBOARD_UPLOAD_MIN_RATE });

/** How often a body's wait is counted (limitedBody). */
const TICK_MS = 100;

/** A rate as messages say it: "500 bytes", "64 KiB", "1.5 MiB". */
function perSecond(rate: number): string {
  if (rate < 1024) return `${rate} bytes`;
  if (rate < 1024 * 1024) return `${Number((rate / 1024).toFixed(1))} KiB`;
  return `${Number((rate / 1024 / 1024).toFixed(1))} MiB`;
}

/**
 * The bytes of a request's body as the HTTP preload hands them over (server/http-preload.mjs, 6):
 * Node's own request stream, found by the header x-quiltboard-body, which the preload sets on every
 * request (overwriting a client's). Next.js gives a route handler the body as a web stream that
 * copies every chunk (an undici Request made from Node's request, `new Uint8Array(chunk)`): reading
 * Node's stream instead halves what an upload allocates. Taken once; null where there is no preload
 * (next dev, tests that call a handler), and the web stream is read instead. Routing and
 * authorization stay Next.js's: only where the bytes come from changes.
 */
function nodeBody(request: Request): AsyncIterator<Uint8Array> | null {
  const bodies = (globalThis as { [key: symbol]: Map<string, AsyncIterable<Uint8Array>> | undefined })[Symbol.for("quiltboard.requestBodies")];
  const id = request.headers.get("x-quiltboard-body");
  const body = id ? bodies?.get(id) : undefined;
  if (!body) return null;
  bodies!.delete(id!);
  return body[Symbol.asyncIterator]();
}

/**
 * The request's body as a stream that reads nothing until it is read from (so a request refused
 * before its body is wanted costs no more than its headers), fails with 413 as soon as more than
 * `maxBytes` have been read, whatever Content-Length declared (a chunked body declares nothing),
 * with 408 when the body arrives slower than its `pace` (bodyPace unless given), and with 400 when
 * the client closes the connection before the end (an error of the client's, not the server's). A
 * declared length over the limit is refused before anything is read.
 * @param what how the message names the body, e.g. "the submission"
 */
export function limitedBody(request: Request, maxBytes: number, what: string, pace?: Pace): ReadableStream<Uint8Array> | null {
  const tooLarge = () => new AppError("payload_too_large", `${what} is larger than ${maxBytes >= 1024 * 1024 ? `${maxBytes / 1024 / 1024} MiB` : `${maxBytes} bytes`}`);
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!request.body) return null;
  let source: { read: () => Promise<IteratorResult<Uint8Array>>; cancel: (reason?: unknown) => Promise<unknown> } | undefined;
  const open = () => {
    const node = nodeBody(request);
    if (node) return { read: () => node.next(), cancel: () => node.return?.() ?? Promise.resolve() };
    const reader = request.body!.getReader();
    return { read: () => reader.read() as Promise<IteratorResult<Uint8Array>>, cancel: (reason?: unknown) => reader.cancel(reason) };
  };
  let read = 0;
  // The current window: bytes it brought, and the milliseconds spent waiting for them.
  let windowBytes = 0;
  let waited = 0;
  // The wait is counted in ticks of TICK_MS while a read is pending, each for at most twice that: a
  // tick that comes late because the event loop was busy (the server's own work) counts as a normal
  // one. One ticker serves the reads that follow each other (a timer per chunk cost more than the
  // rest of this stream's work); it stops at the first tick without a read pending.
  let pending: { since: number; late: () => void } | null = null;
  let ticker: NodeJS.Timeout | undefined;
  const count = (now: number) => {
    if (!pending) return;
    waited += Math.min(now - pending.since, 2 * TICK_MS);
    pending.since = now;
  };
  const stop = () => {
    clearInterval(ticker);
    ticker = undefined;
  };
  const done = () => {
    count(performance.now());
    pending = null;
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { seconds, rate } = (pace ??= bodyPace());
        source ??= open();
        const late = new Promise<"late">((resolve) => (pending = { since: performance.now(), late: () => resolve("late") }));
        ticker ??= setInterval(() => {
          if (!pending) return stop();
          count(performance.now());
          if (waited >= seconds * 1000) pending.late();
        }, TICK_MS);
        let next: IteratorResult<Uint8Array> | "late";
        try {
          next = await Promise.race([source.read(), late]);
        } catch {
          stop();
          throw new AppError("bad_request", `${what} ended before it was complete: the connection was closed`);
        } finally {
          done();
        }
        if (next === "late") {
          stop();
          void source.cancel().catch(() => {});
          throw new AppError("request_timeout", `${what} arrived too slowly (${windowBytes} bytes in ${seconds} s; at least ${perSecond(rate)} a second are needed)`);
        }
        if (next.done) {
          stop();
          readToEnd.add(request);
          controller.close();
          return;
        }
        read += next.value.byteLength;
        if (read > maxBytes) {
          stop();
          void source.cancel().catch(() => {});
          throw tooLarge();
        }
        windowBytes += next.value.byteLength;
        if (windowBytes >= seconds * rate) windowBytes = waited = 0;
        controller.enqueue(next.value);
      },
      async cancel(reason) {
        stop();
        await (source ??= open()).cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Reads a whole limited body into memory (small bodies only: JSON). */
async function readLimited(request: Request, maxBytes: number, what: string): Promise<Uint8Array<ArrayBuffer>> {
  const body = limitedBody(request, maxBytes, what);
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  return new Uint8Array(Buffer.concat(chunks));
}

/** The media types a body of each kind may be sent as (a CSV file's, as browsers and tools label it). */
const MEDIA_TYPES = {
  json: { accepts: (type: string) => type === "application/json" || type.endsWith("+json"), expected: "JSON with Content-Type: application/json (curl: --json)" },
  csv: {
    accepts: (type: string) => ["text/csv", "text/plain", "application/csv", "text/comma-separated-values", "application/vnd.ms-excel", "application/octet-stream"].includes(type),
    expected: "the CSV file as the body with Content-Type: text/csv (curl: -H 'content-type: text/csv' --data-binary @file.csv)",
  },
  multipart: { accepts: (type: string) => type === "multipart/form-data", expected: 'multipart/form-data with the file in the field "file" (curl: -F file=@data.zip)' },
  bytes: {
    accepts: (type: string) => type === "application/octet-stream",
    expected: "the bytes as the body with Content-Type: application/octet-stream (curl: --data-binary @part)",
  },
} as const;

/**
 * 415 when the request's body is of a media type the endpoint does not read; a request without
 * Content-Type (or with an empty body) is read as what the endpoint expects.
 * @param kinds what the endpoint reads, e.g. ["csv", "multipart"]
 */
export function requireMediaType(request: Request, kinds: (keyof typeof MEDIA_TYPES)[]): void {
  const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (!type || request.headers.get("content-length") === "0" || kinds.some((kind) => MEDIA_TYPES[kind].accepts(type))) return;
  throw new AppError("unsupported_media_type", `the request body was sent as ${type}: send ${kinds.map((kind) => MEDIA_TYPES[kind].expected).join(", or ")}`);
}

/** Reads a JSON body; 415 for another media type, 413 over 1 MiB (counting the bytes read), 400 for malformed JSON. */
export async function readJson(request: Request): Promise<unknown> {
  requireMediaType(request, ["json"]);
  const text = new TextDecoder().decode(await readLimited(request, MAX_JSON_BYTES, "the request body"));
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError("bad_request", `the request body cannot be read as JSON: ${jsonProblem(text, (error as Error).message)}`);
  }
}

/** JSON.parse's complaint (V8's words) in the app's, with the line and column where it has one. */
const JSON_PROBLEMS: [RegExp, (match: RegExpMatchArray) => string][] = [
  [/^Expected property name or '}'/, () => "expected a field name in double quotes, or }"],
  [/^Expected double-quoted property name/, () => "expected a field name in double quotes (no comma before } or ])"],
  [/^Expected ',' or '}' after property value/, () => "expected , or } after a value"],
  [/^Expected ',' or ']' after array element/, () => "expected , or ] after an item of a list"],
  [/^Expected ':' after property name/, () => "expected : after a field name"],
  [/^Unterminated string/, () => "a text value is not closed with a double quote"],
  [/^Bad control character/, () => "a control character (a line break or a tab) inside a text value: write it as \\n or \\t"],
  [/^Bad (escaped character|Unicode escape)/, () => "an unknown escape after a backslash inside a text value"],
  [/^Unexpected non-whitespace character after JSON/, () => "something follows the JSON value"],
  [/^Unexpected end of JSON input/, () => "the body ends before the JSON value does"],
  [/^(Exponent part is missing|No number after minus sign|Unterminated fractional number)/, () => "a number is incomplete"],
  [/^Unexpected token '(.+?)'/, (m) => `unexpected ${JSON.stringify(m[1])}: a value is a number, text in double quotes, true, false, null, an object or a list`],
];

function jsonProblem(text: string, message: string): string {
  const entry = JSON_PROBLEMS.map(([pattern, words]) => [message.match(pattern), words] as const).find(([match]) => match);
  const words = entry ? entry[1](entry[0]!) : "not valid JSON";
  const position = /at position (\d+)/.exec(message);
  if (!position) return words;
  const before = text.slice(0, Number(position[1])).split("\n");
  return `${words} (line ${before.length}, column ${before.at(-1)!.length + 1})`;
}

export function json(body: unknown, status = 200): Response {
  return NextResponse.json(body, { status, headers: { "cache-control": "no-store" } });
}
