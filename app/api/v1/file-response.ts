// A file sent for download by a route handler: its bytes with their length (so a browser shows
// progress against it and a client knows the file is whole), its type, and its name for every
// browser. Next.js drops a handler's Content-Length, so the length travels in x-quiltboard-length,
// which the server's HTTP preload (server/http-preload.mjs) turns back into Content-Length; the
// answer is sent as it is (Cache-Control no-transform: compressing on the fly would lose the length).

import { AppError, toErrorResponse } from "@/lib/server/platform/errors";
import { contentDisposition as disposition, type StoredFile } from "@/lib/server/platform/files";
import { type ByteRange, matchesNoneMatch, parseRange, rangeStillValid } from "@/lib/validation/ranges";

/** A stream whose length is known (a stored file, unpacked as it is sent). */
export type SizedStream = { stream: ReadableStream<Uint8Array>; size: number };

/**
 * The file `body` as a download named `filename`, with its length when it is known (a stream
 * written as it is read, such as the leaderboard's CSV export, goes out chunked).
 */
export function fileResponse(body: Uint8Array | string | SizedStream | ReadableStream<Uint8Array>, options: { filename: string; contentType: string; cache: string }): Response {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const [content, size] = bytes instanceof Uint8Array ? [new Uint8Array(bytes), bytes.byteLength] : bytes instanceof ReadableStream ? [bytes, null] : [bytes.stream, bytes.size];
  return new Response(content, {
    headers: {
      "content-type": options.contentType,
      ...(size === null ? {} : { "x-quiltboard-length": String(size) }),
      "content-disposition": disposition(options.filename),
      "cache-control": `${options.cache}, no-transform`,
      "x-content-type-options": "nosniff",
    },
  });
}

/** How long a signed URL of the store serves the file it was made for. */
const SIGNED_URL_SECONDS = 300;

/**
 * A stored file answered as `request` asks (RFC 9110): its strong ETag is its SHA-256, so
 * `If-None-Match` with it answers 304; where the store signs URLs (S3) the answer is a redirect to
 * one, which serves the bytes, ranges and all, itself; else `Range: bytes=a-b` answers 206 with
 * exactly those bytes and their Content-Range (under `If-Range`, only while it is still this ETag),
 * a range past the end 416, and anything else the whole file with `Accept-Ranges: bytes`.
 */
export async function storedFileResponse(request: Request, file: StoredFile, cache: string): Promise<Response> {
  const etag = `"${file.sha256}"`;
  const common = { etag, "accept-ranges": "bytes", "cache-control": `${cache}, no-transform`, "x-content-type-options": "nosniff" };
  if (matchesNoneMatch(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers: common });
  const signed = await file.signedUrl(SIGNED_URL_SECONDS);
  if (signed) return new Response(null, { status: 302, headers: { ...common, location: signed, "cache-control": "private, no-store" } });
  const asked = rangeStillValid(request.headers.get("if-range"), etag) ? parseRange(request.headers.get("range"), file.size) : null;
  if (asked === "unsatisfiable") {
    // A suffix range of an empty file (bytes=-n) asks for none of its bytes: unsatisfiable too (RFC 9110 §14.1.2).
    const why = file.size === 0 ? "the file is empty: no range of it can be sent" : `the file has ${file.size} bytes: the range asked starts past its end`;
    const { status, body } = toErrorResponse(new AppError("range_not_satisfiable", why));
    return Response.json(body, { status, headers: { ...common, "content-range": `bytes */${file.size}` } });
  }
  const headers = { ...common, "content-type": file.contentType, "content-disposition": disposition(file.filename) };
  if (!asked) return new Response(await bytes(request, file, { start: 0, end: file.size - 1 }), { headers: { ...headers, "x-quiltboard-length": String(file.size) } });
  const length = asked.end - asked.start + 1;
  return new Response(await bytes(request, file, asked), {
    status: 206,
    headers: { ...headers, "content-range": `bytes ${asked.start}-${asked.end}/${file.size}`, "x-quiltboard-length": String(length) },
  });
}

type SendFile = (file: { path: string; start: number; end: number }) => void;

/**
 * The body of a stored file's answer: bytes `range` of the file as a stream; or, for a file on this
 * machine's disk served behind the HTTP preload (server/http-preload.mjs, 7), none: the preload,
 * which the header x-quiltboard-response names, is told the file and its range and sends the bytes
 * itself with two buffers reused (a web stream allocates and copies every chunk, which 20 downloads
 * at once made ~110 MB of garbage: docs/performance.md#large-data-files). Without the preload (next
 * dev, tests that call a handler) the stream is the answer. A HEAD request gets no body at all.
 */
async function bytes(request: Request, file: StoredFile, range: ByteRange): Promise<ReadableStream<Uint8Array> | null> {
  if (request.method === "HEAD") return null; // the headers only: a stream opened here would never be read, nor its file closed
  const senders = (globalThis as { [key: symbol]: Map<string, SendFile> | undefined })[Symbol.for("quiltboard.responseFiles")];
  const send = senders?.get(request.headers.get("x-quiltboard-response") ?? "");
  const path = send ? await file.localFile() : null;
  if (!send || !path) return file.open(range.start === 0 && range.end === file.size - 1 ? undefined : range);
  send({ path, start: range.start, end: range.end });
  return null;
}
