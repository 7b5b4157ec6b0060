// A file sent for download by a route handler: its bytes with their length (so a browser shows
// progress against it and a client knows the file is whole), its type, and its name for every
// browser. Next.js drops a handler's Content-Length, so the length travels in x-quiltboard-length,
// which the server's HTTP preload (scripts/http-preload.mjs) turns back into Content-Length; the
// answer is sent as it is (Cache-Control no-transform: compressing on the fly would lose the length).

/** `attachment; filename="…"` with an ASCII fallback and the UTF-8 name (RFC 6266). */
function disposition(filename: string): string {
  return `attachment; filename="${filename.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

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
