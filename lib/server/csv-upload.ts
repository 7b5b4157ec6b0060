import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "./errors";
import { CsvValidationError } from "@/lib/csv/reader";

/**
 * Streams an uploaded CSV body into a streaming parser (which checks it is UTF-8), hashing it
 * (SHA-256) on the way; 413 as soon as more than `maxBytes` have been read, whatever the request
 * declared, and nothing more is read. A parser's CsvValidationError becomes a 422
 * whose details list each problem with its line. Returns the parser's result and the file's hash.
 * @param what how the message names the file, e.g. "the solution file"
 */
export async function readCsvUpload<T>(body: ReadableStream<Uint8Array>, options: { maxBytes: number; what: string; parser: { push(chunk: Uint8Array): void; end(): T } }): Promise<{ result: T; sha256: string }> {
  const { maxBytes, what, parser } = options;
  const hash = createHash("sha256");
  let bytes = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new AppError("payload_too_large", `${what} is larger than ${maxBytes / 1024 / 1024} MiB`);
      hash.update(value);
      parser.push(value);
    }
    return { result: parser.end(), sha256: hash.digest("hex") };
  } catch (error) {
    await reader.cancel().catch(() => {}); // stop reading a body that is rejected
    if (error instanceof CsvValidationError) throw new AppError("unprocessable_entity", `${what} was rejected: ${error.message}`, error.issues);
    throw error;
  }
}
