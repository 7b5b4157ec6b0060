import "server-only";
import { NextResponse } from "next/server";
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
 * The request's body as a stream that fails with 413 as soon as more than `maxBytes` have been read,
 * whatever Content-Length declared (a chunked body declares nothing); a declared length over the
 * limit is refused before anything is read.
 * @param what how the message names the body, e.g. "the submission"
 */
export function limitedBody(request: Request, maxBytes: number, what: string): ReadableStream<Uint8Array> | null {
  const tooLarge = () => new AppError("payload_too_large", `${what} is larger than ${maxBytes >= 1024 * 1024 ? `${maxBytes / 1024 / 1024} MiB` : `${maxBytes} bytes`}`);
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!request.body) return null;
  let read = 0;
  return request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > maxBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
      flush() {
        readToEnd.add(request);
      },
    }),
  );
}

/** Reads a whole limited body into memory (small bodies only: JSON, forms). */
async function readLimited(request: Request, maxBytes: number, what: string): Promise<Uint8Array<ArrayBuffer>> {
  const body = limitedBody(request, maxBytes, what);
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  const reader = body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * The file in the multipart field `field` and the whole form, read with the body limited to
 * `maxBytes` (the parts are held in memory, so the limit bounds that too); 422 when the field is missing.
 */
export async function readMultipartFile(request: Request, maxBytes: number, what: string, field = "file"): Promise<{ file: File; form: FormData }> {
  const bytes = await readLimited(request, maxBytes, what);
  const form = await new Response(bytes, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData().catch(() => null);
  const file = form?.get(field);
  if (!(file instanceof File)) throw new AppError("unprocessable_entity", `send ${what} as multipart/form-data in the field "${field}"`);
  return { file, form: form! };
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
