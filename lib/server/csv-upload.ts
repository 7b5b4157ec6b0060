import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "./errors";
import { CsvValidationError } from "@/lib/csv/reader";

/**
 * Streams an uploaded CSV body into a streaming parser: decoded as strict UTF-8 chunk by chunk,
 * hashed (SHA-256) on the way, 413 past `maxBytes`. A parser's CsvValidationError becomes a 422
 * whose details list each problem with its line. Returns the parser's result and the file's hash.
 * @param what how the message names the file, e.g. "the solution file"
 */
export async function readCsvUpload<T>(body: ReadableStream<Uint8Array>, options: { maxBytes: number; what: string; parser: { push(text: string): void; end(): T } }): Promise<{ result: T; sha256: string }> {
  const { maxBytes, what, parser } = options;
  const hash = createHash("sha256");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  try {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        await reader.cancel();
        throw new AppError("payload_too_large", `${what} is larger than ${maxBytes / 1024 / 1024} MiB`);
      }
      hash.update(value);
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
    return { result: parser.end(), sha256: hash.digest("hex") };
  } catch (error) {
    if (error instanceof CsvValidationError) throw new AppError("unprocessable_entity", `${what} was rejected: ${error.message}`, error.issues);
    if (error instanceof TypeError && /encoded data was not valid/i.test(error.message)) throw new AppError("unprocessable_entity", `${what} is not valid UTF-8 text`);
    throw error;
  }
}
