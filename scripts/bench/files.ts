import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, GetObjectCommand, PutObjectCommand, S3Client, UploadPartCommand } from "@aws-sdk/client-s3";
import type { Figure } from "./mechanism";
import { formatBytes, parseBytes } from "./bytes";
import { cpuSeconds } from "./proc";
import { percentile } from "./stats";
import { startHarness } from "../harness";
import { newApiUser } from "../support/rest-client";
import { watch } from "../support/load";
import { startS3, type S3Peer } from "../support/s3";

type Backend = "local" | "s3";
type Options = { size: number; backends: Backend[]; concurrent: number; firstBytes: number };

const MiB = 1024 * 1024;
/** What the figures hold the app to (issue 41). */
const TARGETS = { ratio: 0.5, memoryMb: 100, firstByteMs: 100 };

/** `--size=256M`, `--backend=local` (or s3; both by default), `--concurrent=20`, `--first-bytes=9`. */
function options(flags: string[]): Options {
  const given = new Map<string, string>();
  for (const flag of flags) {
    const match = /^--(size|backend|concurrent|first-bytes)=(.+)$/.exec(flag);
    if (!match) throw new Error(`files: unknown flag ${flag}; its flags are --size=2G, --backend=local|s3, --concurrent=20, --first-bytes=9`);
    given.set(match[1], match[2]);
  }
  const whole = (name: string, fallback: number) => {
    const value = Number(given.get(name) ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`files: --${name} takes a whole number of at least 1`);
    return value;
  };
  const backends = (given.get("backend")?.split(",") ?? ["local", "s3"]) as Backend[];
  if (!backends.every((b) => b === "local" || b === "s3")) throw new Error("files: --backend is local, s3 or local,s3");
  return { size: parseBytes(given.get("size") ?? "2G"), backends, concurrent: whole("concurrent", 20), firstBytes: whole("first-bytes", 9) };
}

const mibPerSecond = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);
const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

/** `size` random bytes written to `file` a MiB at a time; their SHA-256. */
async function randomFile(file: string, size: number): Promise<string> {
  const hash = createHash("sha256");
  async function* chunks() {
    for (let left = size; left > 0; left -= MiB) {
      const chunk = randomBytes(Math.min(MiB, left));
      hash.update(chunk);
      yield chunk;
    }
  }
  await pipeline(Readable.from(chunks()), createWriteStream(file));
  return hash.digest("hex");
}

/** A sink that counts what it is given (and hashes it when asked), as a client saving nowhere. */
function sink(hashing: boolean) {
  const hash = hashing ? createHash("sha256") : null;
  let bytes = 0;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.byteLength;
      hash?.update(chunk);
      done();
    },
  });
  return { stream, bytes: () => bytes, sha256: () => hash?.digest("hex") ?? null };
}

/** POST …/attachments with `file` as the multipart field "file", streamed from disk as curl -F would; the answer. */
async function uploadThroughApp(
  base: string,
  slug: string,
  auth: Record<string, string>,
  file: string,
  size: number,
): Promise<{ status: number; body: { size?: number; sha256?: string; error?: unknown } }> {
  const boundary = `quiltboard-bench-${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="train.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}/api/v1/competitions/${slug}/attachments`,
      {
        method: "POST",
        agent: false,
        headers: { ...auth, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(head.length + size + tail.length) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (d: string) => (text += d));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || "{}") }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    async function* body() {
      yield head;
      yield* createReadStream(file);
      yield tail;
    }
    pipeline(Readable.from(body()), request).catch(reject);
  });
}

type Download = { status: number; firstByteMs: number; ms: number; bytes: number; sha256: string | null; redirectMs: number | null };

/**
 * GET `url` as a browser would (it offers gzip and br), following a redirect to the store, read to
 * its end into nothing (hashed when `hashing`), or only to its first byte when `firstByteOnly`.
 */
function download(url: string, headers: Record<string, string>, mode: { hashing?: boolean; firstByteOnly?: boolean } = {}): Promise<Download> {
  const started = performance.now();
  let redirectMs: number | null = null;
  const get = (target: string, sent: Record<string, string>): Promise<Download> =>
    new Promise((resolve, reject) => {
      http
        .get(target, { agent: false, headers: { "accept-encoding": "gzip, deflate, br", ...sent } }, (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400 && response.headers.location) {
            redirectMs = performance.now() - started;
            response.resume();
            // The store's signed URL carries its own authority: the app's token stays with the app.
            return void get(new URL(response.headers.location, target).toString(), {}).then(resolve, reject);
          }
          const into = sink(Boolean(mode.hashing));
          let firstByteMs = NaN;
          response.once("data", () => {
            firstByteMs = performance.now() - started;
            if (mode.firstByteOnly) {
              response.destroy();
              resolve({ status, firstByteMs, ms: firstByteMs, bytes: 0, sha256: null, redirectMs });
            }
          });
          pipeline(response, into.stream).then(
            () => resolve({ status, firstByteMs, ms: performance.now() - started, bytes: into.bytes(), sha256: into.sha256(), redirectMs }),
            (error: Error) => (mode.firstByteOnly ? undefined : reject(error)),
          );
        })
        .on("error", reject);
    });
  return get(url, headers);
}

/**
 * The plain transfers of the same bytes that the app's are measured against, in this run; `others`
 * are further plain uploads the app's is compared with in rows of their own (for S3: the disk copy,
 * and the SDK's multipart upload as the app makes it, s3rver's own ceiling for an upload in parts).
 */
type Baseline = { uploadMs: number; downloadMs: number; uploadWhat: string; downloadWhat: string; extra: string; others: { what: string; ms: number }[] };

/** A stream copy of the file on the same disk, synced at its end as the local store syncs (and without, for the record). */
async function localBaseline(dir: string, source: string, size: number): Promise<Baseline> {
  const copy = path.join(dir, "plain-copy.bin");
  const synced = await timed(() => pipeline(createReadStream(source), createWriteStream(copy, { flush: true })));
  await rm(copy);
  const unsynced = await timed(() => pipeline(createReadStream(source), createWriteStream(copy)));
  await rm(copy);
  return {
    uploadMs: synced.ms,
    downloadMs: synced.ms,
    uploadWhat: "a stream copy on the same disk, synced at its end as the store syncs",
    downloadWhat: "the same copy",
    extra: `the copy without the sync: ${mibPerSecond(size, unsynced.ms).toFixed(0)} MiB/s`,
    others: [],
  };
}

/**
 * One PUT and one GET of the file to the same S3 server with the AWS SDK; and, for rows of their
 * own, the multipart upload the app makes (`multipartUpload`) and the synced disk copy of the local
 * store's baseline.
 */
async function s3Baseline(s3: S3Peer, dir: string, source: string, size: number): Promise<Baseline> {
  // A stream of known length goes out in one plain PUT: the SDK's default checksum would send it
  // aws-chunked, which s3rver does not read (it keeps the chunks' framing in the object).
  const client = new S3Client({
    region: "us-east-1",
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    requestChecksumCalculation: "WHEN_REQUIRED",
  });
  const Bucket = s3.bucket;
  const put = await timed(() => client.send(new PutObjectCommand({ Bucket, Key: "plain", Body: createReadStream(source), ContentLength: size })));
  const get = await timed(async () => {
    const answer = await client.send(new GetObjectCommand({ Bucket, Key: "plain" }));
    const into = sink(false);
    await pipeline(answer.Body as Readable, into.stream);
    if (into.bytes() !== size) throw new Error(`the plain GET read ${into.bytes()} bytes of ${size}`);
  });
  const multipart = await timed(() => multipartUpload(client, Bucket, source));
  client.destroy();
  const disk = await localBaseline(dir, source, size);
  return {
    uploadMs: put.ms,
    downloadMs: get.ms,
    uploadWhat: "one PUT with the AWS SDK to the same s3rver",
    downloadWhat: "one GET with the AWS SDK",
    extra: `the SDK's multipart upload as the app makes it: ${mibPerSecond(size, multipart.ms).toFixed(0)} MiB/s, of which s3rver's completion (joining the parts into one file) took ${(multipart.result.completeMs / 1000).toFixed(1)} s of ${(multipart.ms / 1000).toFixed(1)}; the disk copy: ${mibPerSecond(size, disk.uploadMs).toFixed(0)} MiB/s`,
    others: [
      { what: "the SDK's multipart upload to s3rver", ms: multipart.ms },
      { what: "a synced copy on the same disk", ms: disk.uploadMs },
    ],
  };
}

/**
 * The file sent to s3rver as the app sends an upload (lib/server/platform/files.ts): 8 MiB parts read
 * from disk, 4 in flight, then the completion, which is timed on its own (s3rver joins the parts
 * into one file there, a write of the whole file again that S3 itself does not make).
 */
async function multipartUpload(client: S3Client, Bucket: string, source: string): Promise<{ completeMs: number }> {
  const Key = "multipart";
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key }));
  const parts: { PartNumber: number; ETag: string }[] = [];
  const inFlight = new Set<Promise<void>>();
  let PartNumber = 0;
  for await (const chunk of createReadStream(source, { highWaterMark: 8 * MiB })) {
    const number = ++PartNumber;
    const sent: Promise<void> = client
      .send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: number, Body: chunk as Buffer }))
      .then((answer) => void parts.push({ PartNumber: number, ETag: answer.ETag! }))
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
    while (inFlight.size >= 4) await Promise.race(inFlight);
  }
  await Promise.all([...inFlight]);
  parts.sort((a, b) => a.PartNumber - b.PartNumber);
  const complete = await timed(() => client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts } })));
  return { completeMs: complete.ms };
}

type Row = { backend: Backend; what: string; app: string; plain: string; ratio: string; target: string; met: boolean };

/**
 * Issue 41's figures for one data file of `--size` (2 GiB by default) through the real standalone
 * server on the embedded database, with each backend: its upload and one download beside a plain
 * transfer of the same bytes in this run (the local store: a stream copy on the same disk; S3: the
 * AWS SDK's PUT and GET to the same s3rver, so the ratio shows what the app adds), the app
 * process's resident memory growth (sampled every 100 ms from /proc) during the upload, one
 * download and `--concurrent` downloads at once, and the time to a download's first byte (median
 * and max over `--first-bytes`). Everything it writes is in one temporary directory, removed at the
 * end, on failure and on Ctrl-C.
 */
export async function benchFiles(flags: string[] = []): Promise<Figure[]> {
  const opts = options(flags);
  const dir = mkdtempSync(path.join(tmpdir(), "quiltboard-bench-files-"));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    removeDir();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  process.once("exit", removeDir); // an uncaught error ends the process without `finally`
  const figures: Figure[] = [];
  const rows: Row[] = [];
  try {
    const source = path.join(dir, "source.bin");
    const made = await timed(() => randomFile(source, opts.size));
    const sha256 = made.result;
    console.log(`files: ${formatBytes(opts.size)} of random bytes in ${dir} (${(made.ms / 1000).toFixed(1)} s); load average ${loadAverage()}`);
    for (const backend of opts.backends) {
      const result = await benchBackend(backend, dir, source, sha256, opts);
      figures.push(...result.figures);
      rows.push(...result.rows);
      printTable(result.rows, opts); // as each backend ends: a long run's first half is not lost with its second
    }
  } finally {
    removeDir();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("exit", removeDir);
  }
  if (opts.backends.length > 1) printTable(rows, opts);
  return figures;
}

async function benchBackend(backend: Backend, dir: string, source: string, sha256: string, opts: Options): Promise<{ figures: Figure[]; rows: Row[] }> {
  const { size } = opts;
  const s3 = backend === "s3" ? await startS3("quiltboard-bench", dir) : null;
  // The bench's organizer never opens its verification mail: an unverified account may hold as much as a verified one here.
  const bounds = { QUILTBOARD_UNVERIFIED_DATA_BYTES: String(200 * 1024 ** 3) };
  const env = { ...bounds, ...(s3 ? s3.env : { QUILTBOARD_FILES: "local", QUILTBOARD_FILES_DIR: path.join(dir, "store") }) };
  const harness = await startHarness(1, false, { embedded: true, env }).catch(async (error) => {
    await s3?.stop();
    throw error;
  });
  const figures: Figure[] = [];
  const rows: Row[] = [];
  const figure = (f: Figure) => figures.push({ ...f, name: `${backend}: ${f.name}` });
  try {
    const [base] = harness.urls;
    const pid = harness.apps[0].child.pid!;
    const loadBefore = loadAverage();
    const plain = s3 ? await s3Baseline(s3, dir, source, size) : await localBaseline(dir, source, size);
    const plainUp = mibPerSecond(size, plain.uploadMs);
    const plainDown = mibPerSecond(size, plain.downloadMs);

    const organizer = await newApiUser(base, "organizer");
    const slug = `files-${Date.now().toString(36)}`;
    await organizer.call("/api/v1/competitions", { json: { slug, title: slug, metric: { name: "accuracy" }, endsAt: new Date(Date.now() + 86_400_000).toISOString() } });

    // The app's CPU time beside each throughput: on a shared machine it varies less than the time.
    const cpuBefore = cpuSeconds(pid);
    const up = await watch(base, pid, () => timed(() => uploadThroughApp(base, slug, organizer.auth, source, size)));
    const cpuUp = cpuSeconds(pid) - cpuBefore;
    const answer = up.result.result;
    if (answer.status !== 201 || answer.body.sha256 !== sha256 || answer.body.size !== size) {
      throw new Error(`the upload answered ${answer.status} ${JSON.stringify(answer.body)}; expected 201 with ${size} bytes and SHA-256 ${sha256}`);
    }
    const url = `${base}/api/v1/competitions/${slug}/attachments/${(answer.body as { id: string }).id}`;
    const appUp = mibPerSecond(size, up.result.ms);
    figure({
      name: `upload of ${formatBytes(size)}`,
      value: appUp,
      unit: "MiB/s",
      note: `${ratio(appUp, plainUp)} of ${plain.uploadWhat} (${plainUp.toFixed(0)} MiB/s); ${plain.extra}; the app used ${cpuUp.toFixed(1)} s of CPU; SHA-256 as sent`,
    });
    rows.push(
      row(backend, "upload", {
        app: `${appUp.toFixed(0)} MiB/s (CPU ${cpuUp.toFixed(1)} s)`,
        plain: `${plainUp.toFixed(0)} MiB/s`,
        fraction: appUp / plainUp,
        target: "≥ 50 %",
        met: appUp / plainUp >= TARGETS.ratio,
      }),
    );
    for (const other of plain.others) {
      const speed = mibPerSecond(size, other.ms);
      figure({ name: `upload of ${formatBytes(size)} against ${other.what}`, value: (appUp / speed) * 100, unit: "%", note: `${other.what}: ${speed.toFixed(0)} MiB/s` });
      rows.push(row(backend, `upload vs ${other.what}`, { app: `${appUp.toFixed(0)} MiB/s`, plain: `${speed.toFixed(0)} MiB/s`, fraction: appUp / speed, target: "", met: true }));
    }
    const memoryRow = (what: string, grewMb: number, note: string) => {
      figure({ name: `memory growth, ${what}`, value: grewMb, unit: "MB", note });
      rows.push(row(backend, `memory, ${what}`, { app: `+${grewMb.toFixed(0)} MB`, target: "< 100 MB", met: grewMb < TARGETS.memoryMb }));
    };
    memoryRow("upload", up.grewMb, `the app's resident memory, peak over before; slowest other request meanwhile ${up.slowestMs.toFixed(0)} ms`);

    const cpuBeforeDownload = cpuSeconds(pid);
    const one = await watch(base, pid, () => download(url, organizer.auth, { hashing: true }));
    const cpuDown = cpuSeconds(pid) - cpuBeforeDownload;
    if (one.result.status !== 200 || one.result.bytes !== size || one.result.sha256 !== sha256) {
      throw new Error(`the download answered ${one.result.status} with ${one.result.bytes} bytes and SHA-256 ${one.result.sha256}`);
    }
    const appDown = mibPerSecond(size, one.result.ms);
    const through = one.result.redirectMs === null ? "streamed by the app" : `a redirect from the app (${one.result.redirectMs.toFixed(0)} ms) to a URL signed for s3rver`;
    figure({
      name: `download of ${formatBytes(size)}`,
      value: appDown,
      unit: "MiB/s",
      note: `${ratio(appDown, plainDown)} of ${plain.downloadWhat} (${plainDown.toFixed(0)} MiB/s); ${through}; the app used ${cpuDown.toFixed(1)} s of CPU; SHA-256 as uploaded`,
    });
    rows.push(
      row(backend, "download", {
        app: `${appDown.toFixed(0)} MiB/s (CPU ${cpuDown.toFixed(1)} s)`,
        plain: `${plainDown.toFixed(0)} MiB/s`,
        fraction: appDown / plainDown,
        target: "≥ 50 %",
        met: appDown / plainDown >= TARGETS.ratio,
      }),
    );
    memoryRow("one download", one.grewMb, `slowest other request meanwhile ${one.slowestMs.toFixed(0)} ms`);

    const firsts: Download[] = [];
    for (let i = 0; i < opts.firstBytes; i++) firsts.push(await download(url, organizer.auth, { firstByteOnly: true }));
    const ttfb = firsts.map((d) => d.firstByteMs);
    const median = percentile(ttfb, 50);
    const max = Math.max(...ttfb);
    const redirects = firsts.map((d) => d.redirectMs).filter((ms): ms is number => ms !== null);
    figure({
      name: "first byte of a download, median",
      value: median,
      unit: "ms",
      note: `max ${max.toFixed(1)} ms over ${opts.firstBytes} (in order: ${ttfb.map((ms) => ms.toFixed(0)).join(", ")} ms)${redirects.length ? `; the app's redirect alone: median ${percentile(redirects, 50).toFixed(1)} ms` : ""}`,
    });
    rows.push(row(backend, "first byte (median; max)", { app: `${median.toFixed(1)} ms; ${max.toFixed(1)} ms`, target: "< 100 ms", met: max < TARGETS.firstByteMs }));

    const many = await watch(base, pid, () => timed(() => Promise.all(Array.from({ length: opts.concurrent }, () => download(url, organizer.auth)))));
    const complete = many.result.result.filter((d) => d.status === 200 && d.bytes === size).length;
    const aggregate = mibPerSecond(size * opts.concurrent, many.result.ms);
    memoryRow(
      `${opts.concurrent} concurrent downloads`,
      many.grewMb,
      `${complete} of ${opts.concurrent} complete, ${aggregate.toFixed(0)} MiB/s in all over ${(many.result.ms / 1000).toFixed(1)} s; slowest other request meanwhile ${many.slowestMs.toFixed(0)} ms`,
    );
    if (complete !== opts.concurrent) throw new Error(`only ${complete} of ${opts.concurrent} concurrent downloads came whole`);
    figure({ name: "machine load average (1, 5, 15 min)", value: Number(loadBefore.split(" ")[0]), unit: "", note: `before: ${loadBefore}; after: ${loadAverage()}` });
  } finally {
    await harness.stop();
    await s3?.stop();
  }
  return { figures, rows };
}

const ratio = (app: number, plain: number) => `${((app / plain) * 100).toFixed(0)} %`;

/** A row of the table; `plain` and `fraction` (app / plain) for the throughputs only. */
function row(backend: Backend, what: string, cells: { app: string; plain?: string; fraction?: number; target: string; met: boolean }): Row {
  const { app, plain = "", fraction, target, met } = cells;
  return { backend, what, app, plain, ratio: fraction === undefined ? "" : `${(fraction * 100).toFixed(0)} %`, target, met };
}

function printTable(rows: Row[], opts: Options): void {
  const header = ["backend", "figure", "app", "plain", "app/plain", "target", "met"];
  const cells = rows.map((r) => [r.backend, r.what, r.app, r.plain, r.ratio, r.target, r.target ? (r.met ? "yes" : "NO") : ""]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i])).join("  ");
  console.log(`\nfiles: ${formatBytes(opts.size)}, ${opts.concurrent} concurrent downloads, first byte over ${opts.firstBytes}; load average now ${loadAverage()}`);
  console.log([line(header), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n"));
}
