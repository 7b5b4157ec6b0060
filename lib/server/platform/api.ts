import "server-only";
import { NextResponse } from "next/server";
import { env } from "./env";
import { AppError, toErrorResponse } from "./errors";

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
      return await handler(request, context);
    } catch (error) {
      const { status, body } = toErrorResponse(error);
      const retryAfter = status === 503 ? 5 : (body.error.details as { retryAfter?: number } | undefined)?.retryAfter;
      const headers: Record<string, string> = retryAfter ? { "retry-after": String(retryAfter) } : {};
      if (request.body && !readToEnd.has(request)) headers.connection = "close";
      return NextResponse.json(body, { status, headers });
    }
  };
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
  const source = request.body.getReader();
  let read = 0;
  // The current window: bytes it brought, and the milliseconds spent waiting for them.
  let windowBytes = 0;
  let waited = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { seconds, rate } = (pace ??= bodyPace());
        // The wait is counted in ticks of TICK_MS, each for at most twice that: a tick that comes
        // late because the event loop was busy (the server's own work) counts as a normal one.
        let last = performance.now();
        const count = () => {
          const now = performance.now();
          waited += Math.min(now - last, 2 * TICK_MS);
          last = now;
        };
        let ticker: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((resolve) => {
          ticker = setInterval(() => {
            count();
            if (waited >= seconds * 1000) resolve("late");
          }, TICK_MS);
        });
        let next: ReadableStreamReadResult<Uint8Array> | "late";
        try {
          next = await Promise.race([source.read(), late]);
        } catch {
          throw new AppError("bad_request", `${what} ended before it was complete: the connection was closed`);
        } finally {
          clearInterval(ticker);
          count();
        }
        if (next === "late") {
          void source.cancel().catch(() => {});
          throw new AppError("request_timeout", `${what} arrived too slowly (${windowBytes} bytes in ${seconds} s; at least ${perSecond(rate)} a second are needed)`);
        }
        if (next.done) {
          readToEnd.add(request);
          controller.close();
          return;
        }
        read += next.value.byteLength;
        if (read > maxBytes) {
          void source.cancel().catch(() => {});
          throw tooLarge();
        }
        windowBytes += next.value.byteLength;
        if (windowBytes >= seconds * rate) windowBytes = waited = 0;
        controller.enqueue(next.value);
      },
      cancel: (reason) => source.cancel(reason),
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

/** Reads a JSON body; 413 over 1 MiB (counting the bytes read), 400 for malformed JSON. */
export async function readJson(request: Request): Promise<unknown> {
  const text = new TextDecoder().decode(await readLimited(request, MAX_JSON_BYTES, "the request body"));
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError("bad_request", `request body is not valid JSON: ${(error as Error).message}`);
  }
}

export function json(body: unknown, status = 200): Response {
  return NextResponse.json(body, { status, headers: { "cache-control": "no-store" } });
}
