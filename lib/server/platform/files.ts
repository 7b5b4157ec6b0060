import "server-only";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, statfs, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline as pipe, Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { db, streamSlices } from "./db";
import { ConfigurationError, env } from "./env";
import { AppError } from "./errors";
import { log } from "./log";
import { Prisma } from "@/lib/generated/prisma/client";
import type { ByteRange } from "@/lib/validation/ranges";

/**
 * Where files' bytes are kept (data files, solutions' and submissions' files; PostgreSQL keeps their names, sizes and SHA-256), behind
 * one small interface with two backends chosen by QUILTBOARD_FILES (docs/operating.md §10):
 * - `local`: a directory on this machine (QUILTBOARD_FILES_DIR, `.data/files`), for one instance;
 * - `s3`: a bucket of any S3-compatible server through the AWS SDK v3, which several instances share.
 * A file is written whole or not at all: the local store writes beside its name and renames once the
 * last byte is on disk, S3 publishes an object only when its upload completes; so nothing
 * half-written is ever read, and an interrupted `put` leaves nothing behind.
 */
export interface FileStore {
  readonly kind: "local" | "s3";
  /** Writes `body` to `key` (replacing what was there), hashing it as it passes; its size and SHA-256 (hex). */
  put(key: string, body: ReadableStream<Uint8Array> | Readable): Promise<{ size: number; sha256: string }>;
  /** The bytes of `key`, all or from `range.start` to `range.end` (inclusive); 404 when there is no such file. */
  get(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** Where `key` is on this machine's disk (local; 404 when there is no such file), for the HTTP preload to send itself; null where the backend keeps its files elsewhere (S3). */
  localFile(key: string): Promise<string | null>;
  /** A URL that serves `key` for `seconds` to whoever holds it, as a download named `filename`; null where the backend has none (local). */
  signedUrl(key: string, download: { filename: string; contentType: string; seconds: number }): Promise<string | null>;
  /** Removes `key`; nothing when it is already gone. */
  delete(key: string): Promise<void>;
  /** The size of `key`, or null when there is no such file. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Every whole file whose key starts with `prefix` (ending in `/`), with when it was written. */
  list(prefix: string): AsyncIterable<{ key: string; written: Date }>;
  /** The bytes still free for the store to write (local: its file system's, for an unprivileged process); null where the backend has no such bound (S3). */
  free(): Promise<number | null>;
}

/** A file of the store as a download: what its answer says of it, and its bytes (all or a range) or a signed URL. */
export type StoredFile = {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  open: (range?: ByteRange) => Promise<ReadableStream<Uint8Array>>;
  /** Where the file is on this machine's disk (local store), or null (S3). */
  localFile: () => Promise<string | null>;
  /** A URL of the store that serves the file itself for `seconds` (S3), or null (local). */
  signedUrl: (seconds: number) => Promise<string | null>;
};

/** Keys are ours, never a client's: lower-case words separated by `/`, so no key leaves the store's directory. */
const KEY = /^[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*$/;
function checked(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a file store key: ${JSON.stringify(key)}`);
  return key;
}

/** `body` as a Node stream, and a Transform that counts and hashes what passes through it. */
function hashing(body: ReadableStream<Uint8Array> | Readable) {
  const source = body instanceof Readable ? body : Readable.fromWeb(body as NodeWebStream<Uint8Array>);
  const hash = createHash("sha256");
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.byteLength;
      done(null, chunk);
    },
  });
  return { source, tap, digest: () => ({ size, sha256: hash.digest("hex") }) };
}

/**
 * Files written in parts, on either backend (resumable uploads: competitions/attachment-uploads.ts).
 * Each sending of a part is a file of the store of its own, `uploads/<handle>/<number>-<random>`,
 * written whole or not at all like any file (so a part cut off leaves nothing and is sent again),
 * under a key no other sending shares: the caller records which key holds each part, and a part
 * sent again, or sent while the upload went away, never overwrites what a join may be reading.
 * Joining them into the file reads them in order and writes the file once, hashing it on the way: a
 * completion costs one read and one write of the file (through the app, on S3 too), and needs
 * nothing of a backend but put, get and delete (S3's own multipart upload would save the write, but
 * a server that cannot abort one, as s3rver, would keep an abandoned upload's parts forever).
 */
export const fileParts = {
  /** A new key for a sending of part `number` of `handle`. */
  key: (handle: string, number: number) => `uploads/${handle}/${number}-${randomBytes(6).toString("hex")}`,
  /** Writes a part of exactly `size` bytes under `key` (422 otherwise, and nothing kept); its SHA-256. */
  async put(store: FileStore, key: string, part: { size: number; body: ReadableStream<Uint8Array> | Readable }): Promise<string> {
    return (await store.put(key, exactly(part.body, part.size))).sha256;
  },
  /** Writes the parts under `keys`, in order, as the file `key` (`seen` reads each chunk on its way); its size and SHA-256. The parts stay (remove them once the file is recorded). */
  async join(store: FileStore, key: string, parts: { keys: string[]; seen?: (chunk: Uint8Array) => void }): Promise<{ size: number; sha256: string }> {
    const { keys, seen } = parts;
    const joined = Readable.from(
      (async function* () {
        for (const part of keys) {
          for await (const chunk of Readable.fromWeb((await store.get(part)) as NodeWebStream<Uint8Array>)) {
            seen?.(chunk);
            yield chunk;
          }
        }
      })(),
    );
    return store.put(key, joined);
  },
  /** Removes the parts under `keys`, those that are there. */
  async remove(store: FileStore, keys: string[]): Promise<void> {
    for (const key of keys) await store.delete(key);
  },
};

/** `body` as a Node stream that fails with 422 unless it brings exactly `size` bytes. */
function exactly(body: ReadableStream<Uint8Array> | Readable, size: number): Readable {
  const source = body instanceof Readable ? body : Readable.fromWeb(body as NodeWebStream<Uint8Array>);
  let count = 0;
  const wrong = () => new AppError("unprocessable_entity", `this part must have exactly ${size} bytes; ${count > size ? "more" : count} arrived`);
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      count += chunk.byteLength;
      done(count > size ? wrong() : null, chunk);
    },
    flush(done) {
      done(count === size ? null : wrong());
    },
  });
  // The source's failure (a connection cut) passes to the counted stream, which its reader hears of.
  pipe(source, counted, () => {});
  return counted;
}

/** The local backend: `root/<key>`, written to `root/<key>.<uuid>.partial` and renamed when complete. */
export function localStore(root: string): FileStore {
  const where = (key: string) => path.join(root, ...checked(key).split("/"));
  return {
    kind: "local",
    async put(key, body) {
      const target = where(key);
      await mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${randomUUID()}.partial`;
      const { source, tap, digest } = hashing(body);
      try {
        await pipeline(source, tap, createWriteStream(partial, { flush: true }));
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return digest();
    },
    async get(key, range) {
      const file = await this.localFile(key);
      return Readable.toWeb(createReadStream(file!, range ? { start: range.start, end: range.end } : {})) as ReadableStream<Uint8Array>;
    },
    async localFile(key) {
      if (!(await this.stat(key))) throw new AppError("not_found", "the file is not in the store");
      return where(key);
    },
    async signedUrl() {
      return null;
    },
    async delete(key) {
      await rm(where(key), { force: true });
      // A resumable upload's parts have a directory of their own, removed with its last part.
      if (key.startsWith("uploads/")) await rmdir(path.dirname(where(key))).catch(() => {});
    },
    async stat(key) {
      const found = await stat(where(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return null;
        throw error;
      });
      return found?.isFile() ? { size: found.size } : null;
    },
    async *list(prefix) {
      const base = where(prefix.replace(/\/$/, ""));
      const names = await readdir(base, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return [] as string[];
        throw error;
      });
      for (const name of names) {
        const key = `${prefix}${name.split(path.sep).join("/")}`;
        if (!KEY.test(key)) continue; // a .partial file being written
        const found = await stat(path.join(base, name)).catch(() => null);
        if (found?.isFile()) yield { key, written: found.mtime };
      }
    },
    async free() {
      await mkdir(root, { recursive: true });
      const { bavail, bsize } = await statfs(root);
      return bavail * bsize;
    },
  };
}

/**
 * An S3 upload's parts: 8 MiB each, PARTS_IN_FLIGHT at once (while one is sent the store writes
 * another), so one upload holds at most 5 parts' buffers, 40 MiB; S3 allows 10,000 parts, so one
 * file up to 78 GiB (QUILTBOARD_DATA_FILE_BYTES may allow more: such a file is refused at its
 * 10,001st part).
 */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;
const MAX_PARTS = 10_000;

/**
 * Writes the bytes of `chunks` to one object: in one PUT when they fit in a part, else as a
 * multipart upload of PART_BYTES parts, PARTS_IN_FLIGHT sent at once. Each part is copied into one
 * of at most PARTS_IN_FLIGHT + 1 buffers allocated for the upload, filled again once its part is
 * stored (lib-storage, used before, allocated a new 8 MiB buffer per part, whose memory outside the
 * heap started the collector's full collections: docs/performance.md#large-data-files). When
 * anything fails (the body, a part, the completion) the upload is aborted and the failure the caller
 * hears of is the first one, not what the abort makes of it: S3 keeps no part, and an object appears
 * only when its upload completes. (A bucket rule that aborts incomplete multipart uploads after a day
 * also removes the parts of an instance killed mid-upload: docs/operating.md §10.)
 */
async function sendInParts(client: S3Client, target: { Bucket: string; Key: string }, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  const free: Buffer[] = [];
  const take = () => free.pop() ?? Buffer.allocUnsafeSlow(PART_BYTES);
  let current = take();
  let filled = 0;
  let uploadId: string | undefined;
  let numbered = 0;
  const parts: { PartNumber: number; ETag: string }[] = [];
  const inFlight = new Set<Promise<void>>();
  let failed: { error: unknown } | undefined;
  const dispatch = async () => {
    if (failed) throw failed.error;
    if (numbered === MAX_PARTS) throw new AppError("payload_too_large", `the file store takes at most ${MAX_PARTS} parts of ${PART_BYTES / 1024 / 1024} MiB in one file`);
    uploadId ??= (await client.send(new CreateMultipartUploadCommand(target))).UploadId!;
    const [buffer, PartNumber] = [current, ++numbered];
    const task: Promise<void> = client
      .send(new UploadPartCommand({ ...target, UploadId: uploadId, PartNumber, Body: buffer.subarray(0, filled) }))
      .then((answer) => {
        parts.push({ PartNumber, ETag: answer.ETag! });
        free.push(buffer);
      })
      .finally(() => inFlight.delete(task));
    // A part that fails leaves the set like one that succeeds, perhaps while the loop waits for the
    // body rather than for the parts: its failure is kept, and nothing is sent or completed after it.
    task.catch((error: unknown) => (failed ??= { error }));
    inFlight.add(task);
    [current, filled] = [take(), 0];
  };
  try {
    for await (const chunk of chunks) {
      for (let offset = 0; offset < chunk.byteLength;) {
        if (filled === PART_BYTES) {
          while (inFlight.size >= PARTS_IN_FLIGHT) await Promise.race(inFlight);
          await dispatch();
        }
        const length = Math.min(chunk.byteLength - offset, PART_BYTES - filled);
        current.set(chunk.subarray(offset, offset + length), filled);
        [filled, offset] = [filled + length, offset + length];
      }
    }
    if (uploadId === undefined) {
      await client.send(new PutObjectCommand({ ...target, Body: current.subarray(0, filled) }));
      return;
    }
    await dispatch();
    await Promise.all([...inFlight]);
    if (failed) throw failed.error;
    parts.sort((a, b) => a.PartNumber - b.PartNumber);
    await client.send(new CompleteMultipartUploadCommand({ ...target, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
  } catch (error) {
    await Promise.allSettled([...inFlight]);
    if (uploadId !== undefined) await client.send(new AbortMultipartUploadCommand({ ...target, UploadId: uploadId })).catch(() => {});
    throw error;
  }
}

export type S3Options = { bucket: string; region: string; endpoint?: string; forcePathStyle: boolean; credentials?: { accessKeyId: string; secretAccessKey: string } };

/** The S3 backend: objects `<key>` in one bucket. */
export function s3Store(options: S3Options): FileStore {
  const client = new S3Client({
    // No CRC32 of every part (the SDK's default since 2025) and none checked on what is read: the
    // bytes are protected on the way by TLS on https, and on plain http by SigV4, which signs each
    // part's SHA-256 (a server that checks it, as AWS S3, MinIO and Ceph RGW do, refuses a part
    // changed on the way); the file's own SHA-256, computed here as it passes, is what every
    // download is checked against (docs/performance.md#large-data-files).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
  const Bucket = options.bucket;
  return {
    kind: "s3",
    async put(key, body) {
      const source = body instanceof Readable ? body : Readable.fromWeb(body as NodeWebStream<Uint8Array>);
      const hash = createHash("sha256");
      let size = 0;
      await sendInParts(
        client,
        { Bucket, Key: checked(key) },
        (async function* () {
          for await (const chunk of source as AsyncIterable<Uint8Array>) {
            hash.update(chunk);
            size += chunk.byteLength;
            yield chunk;
          }
        })(),
      );
      return { size, sha256: hash.digest("hex") };
    },
    async get(key, range) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: checked(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
        return answer.Body!.transformToWebStream() as ReadableStream<Uint8Array>;
      } catch (error) {
        if ((error as { name?: string }).name === "NoSuchKey") throw new AppError("not_found", "the file is not in the store");
        throw error;
      }
    },
    async localFile() {
      return null;
    },
    async signedUrl(key, download) {
      const command = new GetObjectCommand({
        Bucket,
        Key: checked(key),
        ResponseContentDisposition: contentDisposition(download.filename),
        ResponseContentType: download.contentType,
      });
      return getSignedUrl(client, command, { expiresIn: download.seconds });
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: checked(key) }));
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: checked(key) }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (error instanceof NotFound || (error as { name?: string }).name === "NotFound") return null;
        throw error;
      }
    },
    async *list(prefix) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: checked(prefix.replace(/\/$/, "")) + "/", ContinuationToken }));
        for (const object of page.Contents ?? []) if (object.Key && object.LastModified) yield { key: object.Key, written: object.LastModified };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async free() {
      return null;
    },
  };
}

/** `attachment; filename="…"` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(filename: string): string {
  return `attachment; filename="${filename.replace(/[^\x20-\x7e]|["\\]/gu, "_")}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

let opened: { config: string; store: FileStore } | undefined;

/** The store the configuration names (one per configuration, made on first use). */
export function fileStore(): FileStore {
  const e = env();
  const config = JSON.stringify([e.QUILTBOARD_FILES, e.QUILTBOARD_FILES_DIR, e.S3_BUCKET, e.S3_ENDPOINT, e.S3_REGION, e.S3_FORCE_PATH_STYLE, e.S3_ACCESS_KEY_ID]);
  if (opened?.config === config) return opened.store;
  let store: FileStore;
  if (e.QUILTBOARD_FILES === "local") store = localStore(path.resolve(e.QUILTBOARD_FILES_DIR));
  else {
    if (!e.S3_BUCKET) throw new ConfigurationError(["S3_BUCKET is not set: QUILTBOARD_FILES=s3 keeps the files in that bucket"]);
    const credentials = e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined;
    store = s3Store({ bucket: e.S3_BUCKET, region: e.S3_REGION, endpoint: e.S3_ENDPOINT, forcePathStyle: e.S3_FORCE_PATH_STYLE, credentials });
  }
  opened = { config, store };
  return store;
}

/** The file in a local store's directory that names it (see claimLocalStore). */
const MARK = ".quiltboard-store";

/**
 * At a start, with QUILTBOARD_FILES=local: makes sure this instance's directory is the one this
 * database's files were written to. The first local store to start on a database writes a random
 * mark into its directory and into the database (table file_store); an instance whose directory has
 * another mark, or none while the database has one, is another machine's disk (one of several
 * instances, each with its own container, or a directory that was lost) and refuses to start:
 * files it wrote could not be read by the others. Several instances sharing one directory (one
 * machine, or a shared volume) pass. With S3 there is nothing to check.
 */
export async function claimLocalStore(): Promise<void> {
  const e = env();
  if (e.QUILTBOARD_FILES !== "local") return;
  const root = path.resolve(e.QUILTBOARD_FILES_DIR);
  await mkdir(root, { recursive: true });
  const markFile = path.join(root, MARK);
  const read = async () => (await readFile(markFile, "utf8").catch(() => "")).trim();
  let mine = await read();
  const [known] = await db.$queryRaw<{ mark: string }[]>`SELECT mark::text FROM file_store`;
  if (!known) {
    // A new database: this directory's mark becomes its mark (a new one if the directory has none;
    // of two instances starting on one empty directory, the second reads the first's).
    if (!mine) {
      const candidate = randomUUID();
      mine = await writeFile(markFile, `${candidate}\n`, { flag: "wx" }).then(() => candidate, read);
    }
    await db.$executeRaw`INSERT INTO file_store (mark) VALUES (${mine}::uuid) ON CONFLICT DO NOTHING`;
  }
  const [row] = await db.$queryRaw<{ mark: string }[]>`SELECT mark::text FROM file_store`;
  if (row?.mark !== mine) {
    throw new ConfigurationError([
      `QUILTBOARD_FILES=local: ${root} is not the directory this database's files are kept in (another instance keeps them in its own, marked ${row?.mark}); several instances share one store: set QUILTBOARD_FILES=s3 (docs/operating.md §10), or give every instance the same directory`,
    ]);
  }
}

/**
 * A bytea column whose values move into the store: rows of `table` (id column `id`) with bytes in
 * `bytes` and no key in `key` yet; `keyOf` is the SQL expression (over the row) of the key each is
 * moved to, the same on every run. Constants of the code, never a client's words.
 */
export type BytesColumn = { table: string; id: string; bytes: string; key: string; keyOf: string };

/**
 * At a start: moves the bytes a column kept in the database before the file store existed into the
 * store, one row at a time, and returns how many it moved. Each value is read a slice at a time,
 * written under its key (platform/files.ts is whole-or-nothing), checked against the SHA-256
 * PostgreSQL computes of the value, and only then is its row pointed at the key and its bytes
 * cleared, in one statement that does nothing if another instance did it first. Interrupted
 * anywhere, a run leaves every value readable (the row still has its bytes, or points at a whole
 * object) and the next run finishes the work; an object written for a row deleted meanwhile is removed.
 */
export async function moveToStore(column: BytesColumn): Promise<number> {
  const [table, id, bytes, key] = [column.table, column.id, column.bytes, column.key].map((name) => Prisma.raw(`"${name}"`));
  const store = fileStore();
  let moved = 0;
  for (;;) {
    const [next] = await db.$queryRaw<{ id: string; key: string; size: number; sha256: string }[]>`
      SELECT ${id}::text AS id, ${Prisma.raw(column.keyOf)} AS key, octet_length(${bytes})::float8 AS size, encode(sha256(${bytes}), 'hex') AS sha256
      FROM ${table} WHERE ${key} IS NULL AND ${bytes} IS NOT NULL ORDER BY ${id} LIMIT 1`;
    if (!next) return moved;
    const body = streamSlices(next.size, async (offset, length) => {
      const [row] = await db.$queryRaw<{ slice: Uint8Array | null }[]>`
        SELECT substring(${bytes} FROM ${offset + 1}::int FOR ${length}::int) AS slice FROM ${table} WHERE ${id} = ${next.id}::uuid`;
      if (!row?.slice) throw new Error(`${column.table} ${next.id} changed while it was moved`);
      return row.slice;
    });
    const written = await store.put(next.key, body);
    if (written.sha256 !== next.sha256) throw new Error(`${column.table} ${next.id}: the store holds SHA-256 ${written.sha256}, the database says ${next.sha256}`);
    const pointed = await db.$executeRaw`UPDATE ${table} SET ${key} = ${next.key}, ${bytes} = NULL WHERE ${id} = ${next.id}::uuid AND ${key} IS NULL`;
    if (pointed === 0) {
      const [still] = await db.$queryRaw<{ key: string | null }[]>`SELECT ${key} AS key FROM ${table} WHERE ${id} = ${next.id}::uuid`;
      if (!still) await store.delete(next.key); // deleted while it was moved
    }
    moved++;
  }
}

/** How long a file may be in the store before the row that names it is committed: far beyond a transaction's 30 s. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/**
 * Removes the files under `prefix` written over SWEEP_GRACE_MS before `now` that no row names
 * (`named` returns which of the keys a row does): what a process killed between writing a file and
 * committing its row left, and what rows deleted with their competition, team or account named. A
 * file written for a row not committed yet is younger and stays. Returns how many it removed.
 */
export async function sweepStore(prefix: string, named: (keys: string[]) => Promise<Set<string>>, now = new Date()): Promise<number> {
  const store = fileStore();
  const before = new Date(now.getTime() - SWEEP_GRACE_MS);
  let removed = 0;
  const sweep = async (keys: string[]) => {
    const kept = await named(keys);
    for (const key of keys.filter((k) => !kept.has(k))) {
      await store.delete(key);
      removed++;
    }
  };
  const batch: string[] = [];
  for await (const file of store.list(prefix)) {
    if (file.written >= before) continue;
    batch.push(file.key);
    if (batch.length === 500) await sweep(batch.splice(0));
  }
  if (batch.length) await sweep(batch);
  if (removed) log.info({ prefix, removed }, "files no row names were removed from the file store");
  return removed;
}
