import "server-only";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomUUID } from "node:crypto";
import Busboy from "busboy";
import { limitedBody, requireMediaType, uploadPace } from "./api";
import { db, nameLock, transaction } from "./db";
import { env } from "./env";
import { AppError } from "./errors";
import { log } from "./log";
import { Prisma } from "@/lib/generated/prisma/client";

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
 * Upload slots. Each upload being read holds its parser's working arrays (as many entries as the
 * solution has rows, or the solution's own columns) and its compressed copy, so slots bound the
 * memory uploads can pin, whoever sends them. Every upload takes two before its first byte is read:
 * - one of its account's: at most QUILTBOARD_UPLOADS_PER_USER (2) uploads of one account in progress
 *   over every app instance, counted in PostgreSQL (`upload_slots`); one more is refused at once
 *   (429 with Retry-After);
 * - one of its instance's: at most QUILTBOARD_UPLOADS (4) read at once by this process; one more
 *   waits without being read (at most WAITING of them, each up to WAIT_SECONDS; then 503 with
 *   Retry-After), and slots go to the waiting uploads in the order they came.
 * Both are held only while the body keeps arriving at the upload pace (api.ts uploadPace, 64 KiB a
 * second): a body that falls behind is cut off with 408 and its slots go to the next upload, so a
 * trickle holds a slot for seconds, not for Node's request timeout.
 */
const WAITING = 256;
const WAIT_SECONDS = 30;

let running = 0;
const waiting: { go: () => void }[] = [];

/** Takes an upload slot of `userId` and one of this instance, waiting for the latter if all are taken; the function that gives both back (once). */
async function claimSlot(userId: string): Promise<() => Promise<void>> {
  const accountSlot = await claimAccountSlot(userId);
  try {
    if (running < env().QUILTBOARD_UPLOADS) running++;
    else await waitForSlot();
  } catch (error) {
    await releaseAccountSlot(accountSlot);
    throw error;
  }
  let given = false;
  return async () => {
    if (given) return;
    given = true;
    // A slot given back goes to the first upload waiting (the count stays), else it is free.
    const next = waiting.shift();
    if (next) next.go();
    else running--;
    await releaseAccountSlot(accountSlot);
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

/** How long an account slot's row outlives the last renewal: an instance that dies frees its slots within this. */
const LEASE_SECONDS = 60;
const RENEW_SECONDS = 20;
/** The account slots this process holds, renewed every RENEW_SECONDS while there are any. */
const held = new Set<string>();
let renewal: NodeJS.Timeout | undefined;

/**
 * Takes one of the account's upload slots, over every app instance; 429 when it has all of them. Its
 * claims are serialised by a lock on the account's name, so concurrent ones count exactly; its
 * lapsed slots (an instance that died) are cleared on the way.
 */
async function claimAccountSlot(userId: string): Promise<string> {
  const id = randomUUID();
  const limit = env().QUILTBOARD_UPLOADS_PER_USER;
  const { mine, taken } = await transaction(async (tx) => {
    void tx.read(nameLock(`uploads:${userId}`));
    const [row] = await tx.read<{ mine: number; taken: boolean }>(Prisma.sql`
      WITH lapsed AS (DELETE FROM upload_slots WHERE user_id = ${userId}::uuid AND expires_at < now()),
        current AS (SELECT count(*)::int AS mine FROM upload_slots WHERE user_id = ${userId}::uuid AND expires_at >= now()),
        claimed AS (
          INSERT INTO upload_slots (id, user_id, expires_at)
          SELECT ${id}::uuid, ${userId}::uuid, now() + make_interval(secs => ${LEASE_SECONDS}) FROM current WHERE mine < ${limit}
          RETURNING id)
      SELECT mine, EXISTS (SELECT 1 FROM claimed) AS taken FROM current`);
    return row;
  });
  if (!taken) {
    throw new AppError("rate_limited", `you already have ${mine} uploads in progress, the most one account may send at once; try again in 5 s, when one has finished`, {
      retryAfter: 5,
    });
  }
  held.add(id);
  renewal ??= setInterval(renewAccountSlots, RENEW_SECONDS * 1000).unref();
  return id;
}

async function releaseAccountSlot(id: string): Promise<void> {
  held.delete(id);
  if (held.size === 0) {
    clearInterval(renewal);
    renewal = undefined;
  }
  // Should this fail (the database away), the row lapses on its own within LEASE_SECONDS.
  await db.$executeRaw`DELETE FROM upload_slots WHERE id = ${id}::uuid`.catch((error: Error) => log.warn({ err: error.message }, "an upload slot could not be given back"));
}

function renewAccountSlots(): void {
  const ids = [...held];
  void db.$executeRaw`UPDATE upload_slots SET expires_at = now() + make_interval(secs => ${LEASE_SECONDS}) WHERE id = ANY(${ids}::uuid[])`.catch((error: Error) =>
    log.warn({ err: error.message }, "upload slots could not be renewed"),
  );
}

/** `inner`, read only once upload slots of `userId` are held (claimSlot); they are given back when the stream ends, fails or is cancelled. */
function gated(inner: ReadableStream<Uint8Array>, userId: string): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let release = async () => {};
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
            await release();
            controller.close();
          } else controller.enqueue(next.value);
        } catch (error) {
          await release();
          throw error;
        }
      },
      async cancel(reason) {
        await release();
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
 * bounds of `limitedBody` (413, the upload pace, a closed connection), read within `userId`'s upload
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
    const body = limitedBody(request, options.maxBytes, what, uploadPace());
    return { file: body && gated(body, userId), details: () => Promise.resolve(fromQuery) };
  }
  const body = limitedBody(request, options.maxBytes + ENVELOPE_BYTES, what, uploadPace());
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
    // defParamCharset: a file name as browsers, curl and requests send it, in UTF-8 (busboy reads latin-1 otherwise).
    busboy = Busboy({ headers: { "content-type": contentType }, defParamCharset: "utf8", limits: { files: 1, fields: 8, fieldSize: 4096, parts: 16 } });
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

/**
 * The request's body as raw bytes (a part of a resumable upload), limited to `maxBytes` with the
 * bounds of `limitedBody` and read within `userId`'s upload slots, as openUpload's file: nothing is
 * read until the service reads it, so it authorizes first. Null when the request has no body.
 */
export function openBytes(request: Request, options: { maxBytes: number; what: string; userId: string }): ReadableStream<Uint8Array> | null {
  requireMediaType(request, ["bytes"]);
  const body = limitedBody(request, options.maxBytes, options.what, uploadPace());
  return body && gated(body, options.userId);
}
