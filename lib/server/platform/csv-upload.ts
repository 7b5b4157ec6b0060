import "server-only";
import { createHash } from "node:crypto";
import { pipeline, Readable } from "node:stream";
import { promisify } from "node:util";
import { constants, createGunzip, createZstdDecompress, zstdCompress } from "node:zlib";
import { AppError } from "./errors";
import { CsvValidationError } from "@/lib/csv/reader";

/** The longest a parse keeps the event loop to itself before other requests get their turn. */
const SLICE_MS = 2;

/**
 * Streams an uploaded CSV body into a streaming parser (which checks it is UTF-8), hashing it
 * (SHA-256) on the way and, with `keep`, compressing a copy (zstd, on libuv's thread pool while the
 * parser runs); on a problem that ends the parse (the header, the encoding, an over-long line)
 * reading stops, while a row's problems are counted to the end. A parser's CsvValidationError
 * becomes a 422 whose details list each problem with its line. Returns the parser's result, the file's hash and,
 * with `keep`, the compressed file and its original size. The body's size is bounded where it
 * enters (lib/server/platform/api.ts `limitedBody`). `parser` makes the parser once the body's first
 * bytes have arrived: a parser's working arrays can be as long as the solution, and an upload from
 * a request (platform/uploads.ts) may wait for a slot before it sends any, so only the uploads
 * being read hold them.
 * @param what how the message names the file, e.g. "the solution file"
 */
export async function readCsvUpload<T>(
  body: ReadableStream<Uint8Array>,
  options: { what: string; parser: () => { push(chunk: Uint8Array): void; end(): T }; keep?: boolean },
): Promise<{ result: T; sha256: string; file: { compressed: Buffer<ArrayBuffer>; size: number } | null }> {
  const { what } = options;
  let parser: { push(chunk: Uint8Array): void; end(): T } | undefined;
  const hash = createHash("sha256");
  const copy = options.keep ? compressor() : null;
  let size = 0;
  const reader = body.getReader();
  let slice = performance.now();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // A body that has already arrived is read without the event loop turning (each read resolves
      // at once), so a parse would keep every other request waiting until it ends (a shuffled 10⁶-row
      // file: about a second). Every SLICE_MS of parsing the loop lets the others in.
      if (performance.now() - slice > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      parser ??= options.parser();
      hash.update(value);
      copy?.write(value);
      size += value.byteLength;
      parser.push(value);
    }
    const result = (parser ?? options.parser()).end();
    const compressed = await copy?.end();
    return { result, sha256: hash.digest("hex"), file: compressed ? { compressed, size } : null };
  } catch (error) {
    copy?.abandon();
    await reader.cancel().catch(() => {}); // stop reading a body that is rejected
    if (error instanceof CsvValidationError) throw new AppError("unprocessable_entity", `${what} was rejected: ${error.message}`, error.issues);
    throw error;
  }
}

const zstdAsync = promisify(zstdCompress);

/** Bytes compressed as one zstd frame, and how many frames of one upload are compressed at once. */
export const FRAME_BYTES = 1024 * 1024;
const IN_FLIGHT = 2;

/**
 * One frame of a kept copy: `input` as a zstd frame at level 1, compressed in one pass on libuv's
 * thread pool into an output buffer it fits in (so it is made without a turn of the event loop
 * between its pieces). The frame records its size and a checksum of its content (as each gzip
 * member did), so a damaged copy fails to unpack rather than unpacking wrong. Level 1 is zstd's
 * fastest positive level: a 10⁶-row file (9.9 MB) takes about 25 ms of CPU here, 1.7× less than gzip
 * level 1, the format kept before, for a copy 3× smaller (docs/runtime.md, `npm run bench -- scoring`).
 */
export function compressFrame(input: Buffer): Promise<Buffer<ArrayBuffer>> {
  return zstdAsync(input, {
    params: { [constants.ZSTD_c_compressionLevel]: 1, [constants.ZSTD_c_checksumFlag]: 1 },
    pledgedSrcSize: input.byteLength,
    chunkSize: Math.max(64 * 1024, input.byteLength + 1024),
  });
}

/**
 * A zstd copy of what is written, made while the parse runs: every FRAME_BYTES become a frame
 * (compressFrame), and the frames, in order, are the file (RFC 8878 §3.1: a zstd file is a series of
 * frames; Node's decompressor reads them all). A streaming compressor would advance only when the
 * event loop turns, which a parse of a body that has already arrived rarely lets it do: it finished
 * after the parse.
 */
function compressor() {
  const frames: Promise<Buffer>[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let abandoned = false;
  const compress = () => {
    const input = Buffer.concat(pending, pendingBytes);
    // At most IN_FLIGHT frames at once, so that a large body that has already arrived does not
    // queue a task per MiB ahead of everything else the pool does (password hashes).
    const frame = (frames.at(-IN_FLIGHT) ?? Promise.resolve()).then(() => (abandoned ? Buffer.alloc(0) : compressFrame(input)));
    frame.catch(() => {}); // awaited by `end`; a rejected upload never gets there
    frames.push(frame);
    pending = [];
    pendingBytes = 0;
  };
  return {
    write(chunk: Uint8Array) {
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= FRAME_BYTES) compress();
    },
    async end(): Promise<Buffer<ArrayBuffer>> {
      if (pendingBytes > 0 || frames.length === 0) compress();
      return Buffer.concat(await Promise.all(frames));
    },
    /** For a rejected upload: the frames not started yet are not compressed. */
    abandon() {
      abandoned = true;
    },
  };
}

/** The first bytes of a zstd frame (RFC 8878 §3.1.1); a gzip member starts 1f 8b (RFC 1952 §2.3.1). */
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/**
 * A kept copy (read from the file store), unpacked as the reader takes it. Copies are zstd frames
 * (`compressor`), or gzip members for those kept before Quiltboard moved to Node 24, which stay as
 * they were: the first bytes say which. A slow reader of a file that unpacks to far more than it
 * takes holds the store's buffer and the decompressor's window, not the file.
 */
export async function unpackKept(packed: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const reader = packed.getReader();
  const head: Uint8Array[] = [];
  for (let bytes = 0; bytes < ZSTD_MAGIC.byteLength;) {
    const { done, value } = await reader.read();
    if (done) break;
    head.push(value);
    bytes += value.byteLength;
  }
  const first = Buffer.concat(head);
  async function* bytes() {
    try {
      if (first.byteLength) yield first;
      for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
    } finally {
      await reader.cancel().catch(() => {}); // the reader went away: the store's stream is closed
    }
  }
  const unpack = first.subarray(0, 4).equals(ZSTD_MAGIC) ? createZstdDecompress() : createGunzip();
  pipeline(Readable.from(bytes()), unpack, () => {}); // a failure of either ends the other, and the answer, with it
  return Readable.toWeb(unpack) as ReadableStream<Uint8Array>;
}
