import "server-only";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import Busboy from "busboy";
import { limitedBody, requireMediaType } from "./api";
import { env } from "./env";
import { AppError } from "./errors";

/**
 * An uploaded file (a submission, a sandbox test, an attachment) as a service reads it: a CSV request
 * body with `?filename=&description=`, or the multipart field "file" with a field "description".
 * Nothing of the body is read until the service reads `file`, so a service authorizes first (the
 * caller's team, a ban, the daily cap, …) and a refused upload costs its headers only. Reading then
 * waits for an upload slot (below), and the file streams from the socket into the reader: a
 * multipart body is parsed as it arrives (busboy), never buffered whole.
 */
export type Upload = {
  /** the file's bytes as they arrive; null when the request has no body */
  file: ReadableStream<Uint8Array> | null;
  /** the file's name, content type and the uploader's note; for multipart, once the file has been read (fields may follow it) */
  details: () => Promise<UploadDetails>;
};

export type UploadDetails = { name: string | null; contentType: string | null; description: string | null };

/**
 * A file's name and note as a service takes them: given at once (tests, the demo seed), or as an
 * upload's `details`, which are known once its file has been read.
 */
export type FileDetails = { name?: string | null; description?: string | null } | (() => Promise<UploadDetails>);

/** The name and note of `details`; for an upload, call it only after its file has been read to its end. */
export async function fileDetails(details: FileDetails): Promise<{ name?: string | null; description?: string | null }> {
  return typeof details === "function" ? details() : details;
}

/**
 * Uploads read at once per instance (QUILTBOARD_UPLOADS, default 4) and per account
 * (QUILTBOARD_UPLOADS_PER_USER, default 2). Each upload being read holds its parser's working
 * arrays (as many entries as the solution has rows) and its compressed copy, so these bound the
 * memory uploads can pin, whoever sends them. An upload beyond the instance's slots waits for one
 * without being read (at most WAITING of them, each up to WAIT_SECONDS; then 503 with
 * Retry-After); one beyond the account's is refused at once (429 with Retry-After).
 */
const WAITING = 256;
const WAIT_SECONDS = 30;

let running = 0;
const waiting: { go: () => void }[] = [];
const perUser = new Map<string, number>();

/** Takes an upload slot for `userId`, waiting for one if all are taken; the function that gives it back (once). */
async function claimSlot(userId: string): Promise<() => void> {
  const mine = perUser.get(userId) ?? 0;
  if (mine >= env().QUILTBOARD_UPLOADS_PER_USER) {
    throw new AppError("rate_limited", `you already have ${mine} uploads in progress, the most one account may send at once; try again in 5 s, when one has finished`, {
      retryAfter: 5,
    });
  }
  perUser.set(userId, mine + 1);
  const leave = () => (perUser.get(userId) === 1 ? perUser.delete(userId) : perUser.set(userId, perUser.get(userId)! - 1));
  try {
    if (running < env().QUILTBOARD_UPLOADS) running++;
    else await waitForSlot();
  } catch (error) {
    leave();
    throw error;
  }
  let given = false;
  return () => {
    if (given) return;
    given = true;
    leave();
    // A slot given back goes to the first upload waiting (the count stays), else it is free.
    const next = waiting.shift();
    if (next) next.go();
    else running--;
  };
}

function waitForSlot(): Promise<void> {
  const busy = () => new AppError("unavailable", `the server is reading as many uploads as it can (${env().QUILTBOARD_UPLOADS} at once); try again in a few seconds`);
  if (waiting.length >= WAITING) return Promise.reject(busy());
  return new Promise((resolve, reject) => {
    const entry = {
      go: () => {
        clearTimeout(timer);
        resolve();
      },
    };
    const timer = setTimeout(() => {
      waiting.splice(waiting.indexOf(entry), 1);
      reject(busy());
    }, WAIT_SECONDS * 1000);
    waiting.push(entry);
  });
}

/** `inner`, read only once an upload slot of `userId` is held; the slot is given back when the stream ends, fails or is cancelled. */
function gated(inner: ReadableStream<Uint8Array>, userId: string): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let release = () => {};
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!reader) {
          release = await claimSlot(userId);
          reader = inner.getReader();
        }
        try {
          const next = await reader.read();
          if (next.done) {
            release();
            controller.close();
          } else controller.enqueue(next.value);
        } catch (error) {
          release();
          throw error;
        }
      },
      async cancel(reason) {
        release();
        await (reader ?? inner).cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Room for a multipart body's boundaries and part headers around the file. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * The request's upload (see Upload), limited to `maxBytes` (plus the multipart envelope) with the
 * bounds of `limitedBody` (413, a minimum rate, a closed connection), read within `userId`'s upload
 * slots.
 * @param what how messages name the file, e.g. "the submission"
 */
export function openUpload(request: Request, options: { maxBytes: number; what: string; userId: string }): Upload {
  const { what, userId } = options;
  const query = new URL(request.url).searchParams;
  const contentType = request.headers.get("content-type");
  const fromQuery: UploadDetails = { name: query.get("filename"), contentType, description: query.get("description") };
  requireMediaType(request, ["csv", "multipart"]);
  if (!contentType?.toLowerCase().startsWith("multipart/form-data")) {
    const body = limitedBody(request, options.maxBytes, what);
    return { file: body && gated(body, userId), details: () => Promise.resolve(fromQuery) };
  }
  const body = limitedBody(request, options.maxBytes + ENVELOPE_BYTES, what);
  if (!body) return { file: null, details: () => Promise.resolve(fromQuery) };
  const form = multipartFile(contentType, body, what);
  return {
    file: gated(form.file, userId),
    details: async () => {
      const fields = await form.fields;
      return { name: fields.name, contentType: fields.contentType, description: fields.description ?? fromQuery.description };
    },
  };
}

/**
 * The multipart field "file" of `body` as a stream, parsed by busboy as it is read (at most one
 * file, 8 other fields of up to 4 KiB each, 16 parts), and the form's other fields once it has
 * been parsed to its end. Nothing is read before the file is.
 */
function multipartFile(contentType: string, body: ReadableStream<Uint8Array>, what: string) {
  const malformed = (error: unknown) => new AppError("unprocessable_entity", `${what} is not well-formed multipart/form-data: ${(error as Error).message}`);
  const noFile = () => new AppError("unprocessable_entity", `send ${what} as multipart/form-data in the field "file"`);
  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({ headers: { "content-type": contentType }, limits: { files: 1, fields: 8, fieldSize: 4096, parts: 16 } });
  } catch (error) {
    throw malformed(error);
  }
  const source = Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
  // The first error wins: the body's own (413, 408, a closed connection) over what busboy makes of
  // it (a file cut short), so it is caught as the source fails, before the pipeline passes it on.
  let failure: unknown = null;
  const fail = (error: unknown) => (failure ??= error instanceof AppError ? error : malformed(error));
  source.once("error", fail);
  let description: string | null = null;
  let part: { stream: Readable; filename: string | null; mimeType: string } | null = null;
  const found = deferred<Readable>();
  const fields = deferred<UploadDetails>();
  // Whoever awaits these sees their failure; these handlers only keep an unawaited one from being reported as unhandled.
  found.promise.catch(() => {});
  fields.promise.catch(() => {});
  busboy.on("file", (name, stream, info) => {
    if (name !== "file" || part) return void stream.resume();
    part = { stream, filename: info.filename ?? null, mimeType: info.mimeType };
    found.resolve(stream);
  });
  busboy.on("field", (name, value) => {
    if (name === "description") description = value;
  });
  busboy.on("close", () => {
    if (!part) found.reject(noFile());
    fields.resolve({ name: part?.filename ?? null, contentType: part?.mimeType ?? null, description });
  });
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    pipeline(source, busboy).catch((error) => {
      fail(error);
      found.reject(failure);
      fields.reject(failure);
      part?.stream.destroy(failure as Error);
    });
  };
  let chunks: AsyncIterator<Buffer> | undefined;
  const file = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        start();
        try {
          chunks ??= (await found.promise)[Symbol.asyncIterator]();
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
        } catch (error) {
          throw failure ?? fail(error);
        }
      },
      cancel() {
        source.destroy();
        busboy.destroy();
      },
    },
    { highWaterMark: 0 },
  );
  return { file, fields: fields.promise };
}

/** A promise with its resolve and reject (Promise.withResolvers, which Node 20 lacks). */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}
