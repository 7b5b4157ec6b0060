import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "./errors";
import { CsvValidationError } from "@/lib/csv/reader";

/**
 * Streams an uploaded CSV body into a streaming parser (which checks it is UTF-8), hashing it
 * (SHA-256) on the way; on the first problem reading stops. A parser's CsvValidationError becomes a
 * 422 whose details list each problem with its line. Returns the parser's result and the file's
 * hash. The body's size is bounded where it enters (lib/server/api.ts `limitedBody`).
 * @param what how the message names the file, e.g. "the solution file"
 */
export async function readCsvUpload<T>(body: ReadableStream<Uint8Array>, options: { what: string; parser: { push(chunk: Uint8Array): void; end(): T } }): Promise<{ result: T; sha256: string }> {
  const { what, parser } = options;
  const hash = createHash("sha256");
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
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
