import "server-only";
import { NextResponse } from "next/server";
import { AppError, toErrorResponse } from "./errors";

/** Largest JSON body the API reads (larger gets 413 before it is parsed). */
const MAX_JSON_BYTES = 1024 * 1024;

/** Wraps a route handler: any thrown error becomes SPEC §7's JSON error with its status. */
export function handleApi<C>(handler: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      return await handler(request, context);
    } catch (error) {
      const { status, body } = toErrorResponse(error);
      return NextResponse.json(body, { status, headers: status === 503 ? { "retry-after": "5" } : {} });
    }
  };
}

/** Reads a JSON body; 413 over 1 MiB, 400 for malformed JSON. */
export async function readJson(request: Request): Promise<unknown> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_JSON_BYTES) throw new AppError("payload_too_large", `request body is larger than ${MAX_JSON_BYTES} bytes`);
  const text = await request.text();
  if (text.length > MAX_JSON_BYTES) throw new AppError("payload_too_large", `request body is larger than ${MAX_JSON_BYTES} bytes`);
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
