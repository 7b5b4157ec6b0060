import { createHash, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "@/scripts/app";
import { freePort } from "@/scripts/db/admin";
import { watch } from "@/scripts/support/load";
import { APP_URL, appOnS3, newApiUser, newCompetitor, publishedCompetition } from "./helpers";

// Data files through the running app, as clients meet them: a multipart upload streamed into the
// store, downloads with ETag, Range, If-Range and If-None-Match, a download cut off by killing the
// server and resumed from another one, and the S3 store's signed redirect.

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
/** Where a process's descriptor points, or "" when it closed meanwhile. */
const readlinkSafe = (fd: string) => {
  try {
    return readlinkSync(fd);
  } catch {
    return "";
  }
};

/** POSTs `bytes` as the multipart field "file" named `filename`, of media type `type`; the answer's JSON. */
async function upload(
  base: string,
  slug: string,
  auth: Record<string, string>,
  { bytes, filename, type = "application/octet-stream" }: { bytes: Uint8Array; filename: string; type?: string },
) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  const answer = await fetch(`${base}/api/v1/competitions/${slug}/attachments`, { method: "POST", body: form, headers: auth });
  expect(answer.status).toBe(201);
  return (await answer.json()) as { id: string; size: number; sha256: string };
}

// 48 MiB of random bytes: more than the sockets between the server and a paused client hold.
const data = randomBytes(48 * 1024 * 1024);
let slug: string;
let organizer: { authorization: string };
let reader: { authorization: string };
let file: { id: string; size: number; sha256: string };
let path: string;

beforeAll(async () => {
  ({ slug, organizer } = await publishedCompetition());
  reader = (await newCompetitor(slug)).auth;
  file = await upload(APP_URL, slug, organizer, { bytes: data, filename: "big.bin" });
  path = `/api/v1/competitions/${slug}/attachments/${file.id}`;
});

describe("a data file through the app (local store)", () => {
  it("is stored whole from a streamed multipart upload and listed with its size and SHA-256", async () => {
    expect(file).toMatchObject({ size: data.byteLength, sha256: sha256(data) });
    const { attachments } = await (await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments`)).json();
    expect(attachments).toEqual([expect.objectContaining({ id: file.id, filename: "big.bin", size: data.byteLength, sha256: sha256(data) })]);
  });

  it("downloads whole with its ETag, Accept-Ranges and Content-Length", async () => {
    const answer = await fetch(`${APP_URL}${path}`, { headers: reader });
    expect(answer.status).toBe(200);
    expect([answer.headers.get("etag"), answer.headers.get("accept-ranges"), answer.headers.get("content-length")]).toEqual([
      `"${sha256(data)}"`,
      "bytes",
      String(data.byteLength),
    ]);
    expect(sha256(new Uint8Array(await answer.arrayBuffer()))).toBe(sha256(data));
  });

  it("answers Range with 206 and exactly those bytes, a range past the end with 416, If-None-Match with 304 and a stale If-Range with the whole file", async () => {
    const get = (headers: Record<string, string>) => fetch(`${APP_URL}${path}`, { headers: { ...reader, ...headers } });
    const middle = await get({ range: "bytes=1000000-1999999" });
    expect([middle.status, middle.headers.get("content-range"), middle.headers.get("content-length")]).toEqual([206, `bytes 1000000-1999999/${data.byteLength}`, "1000000"]);
    expect(Buffer.from(await middle.arrayBuffer()).equals(data.subarray(1_000_000, 2_000_000))).toBe(true);
    const tail = await get({ range: "bytes=-10" });
    expect([tail.status, tail.headers.get("content-range")]).toEqual([206, `bytes ${data.byteLength - 10}-${data.byteLength - 1}/${data.byteLength}`]);
    expect(Buffer.from(await tail.arrayBuffer()).equals(data.subarray(data.byteLength - 10))).toBe(true);
    const past = await get({ range: `bytes=${data.byteLength}-` });
    expect([past.status, past.headers.get("content-range")]).toEqual([416, `bytes */${data.byteLength}`]);
    expect((await past.json()).error).toEqual({ code: "range_not_satisfiable", message: `the file has ${data.byteLength} bytes: the range asked starts past its end` });
    // A suffix range of an empty file asks for none of its bytes: unsatisfiable (RFC 9110 §14.1.2, §15.5.17).
    const empty = await upload(APP_URL, slug, organizer, { bytes: new Uint8Array(0), filename: "empty.bin" });
    const none = await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments/${empty.id}`, { headers: { ...reader, range: "bytes=-5" } });
    expect([none.status, none.headers.get("content-range"), (await none.json()).error]).toEqual([
      416,
      "bytes */0",
      { code: "range_not_satisfiable", message: "the file is empty: no range of it can be sent" },
    ]);
    expect((await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments/${empty.id}`, { method: "DELETE", headers: organizer })).status).toBe(200);
    const current = await get({ "if-none-match": `"${sha256(data)}"` });
    expect([current.status, await current.text()]).toEqual([304, ""]);
    const same = await get({ range: "bytes=0-9", "if-range": `"${sha256(data)}"` });
    expect([same.status, Buffer.from(await same.arrayBuffer()).equals(data.subarray(0, 10))]).toEqual([206, true]);
    const stale = await get({ range: "bytes=0-9", "if-range": '"another-version"' });
    expect([stale.status, stale.headers.get("content-length")]).toEqual([200, String(data.byteLength)]);
    await stale.body?.cancel();
  });

  it("streams every file as one zip of stored entries with its exact Content-Length, which Python's zipfile reads back byte for byte", async () => {
    const csv = new TextEncoder().encode("id,x\n1,2\n");
    await upload(APP_URL, slug, organizer, { bytes: csv, filename: "small.csv" });
    const answer = await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments/all`, { headers: reader });
    expect([answer.status, answer.headers.get("content-type"), answer.headers.get("content-disposition")]).toEqual([
      200,
      "application/zip",
      `attachment; filename="${slug}-data.zip"; filename*=UTF-8''${slug}-data.zip`,
    ]);
    const zip = new Uint8Array(await answer.arrayBuffer());
    expect(answer.headers.get("content-length")).toBe(String(zip.byteLength));
    const where = join(mkdtempSync(join(tmpdir(), "zip-")), "data.zip");
    writeFileSync(where, zip);
    // testzip() checks every entry's CRC-32; compress_type 0 is "stored".
    const script =
      "import hashlib, json, sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nprint(json.dumps({'bad': z.testzip(), 'files': {i.filename: [i.compress_type, i.file_size, hashlib.sha256(z.read(i)).hexdigest()] for i in z.infolist()}}))";
    const python = spawnSync(process.env.PYTHON ?? "python3", ["-c", script, where], { encoding: "utf8", maxBuffer: 1024 * 1024 });
    expect(python.stderr).toBe("");
    expect(JSON.parse(python.stdout)).toEqual({ bad: null, files: { "big.bin": [0, data.byteLength, sha256(data)], "small.csv": [0, csv.byteLength, sha256(csv)] } });
    expect((await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments/all`)).status).toBe(401);
  });

  it("refuses a download to someone who has not joined (401/403), as before", async () => {
    expect((await fetch(`${APP_URL}${path}`)).status).toBe(401);
  });

  it("serves 20 downloads at once, 20 cut off by their clients and 20 HEAD requests, with the app's memory within 80 MB and no file left open", async () => {
    // Each download's bytes are sent by the HTTP preload from two reused buffers (server/http-preload.mjs,
    // 7): a web stream of the file allocated and copied every 64 KiB, and 20 of these at once grew the
    // app by 108–119 MB before the collector caught up (docs/performance.md#large-data-files). With the
    // preload: +1 MB on a quiet machine, +54 MB in a fresh clone's full run under load (the requests'
    // own garbage, collected later): 80 MB lies between.
    const env = { DATABASE_URL: process.env.DATABASE_URL!, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET! };
    const app = await startApp({ port: await freePort(), quiet: true, env });
    try {
      const pid = app.child.pid!;
      const openFiles = () => readdirSync(`/proc/${pid}/fd`).filter((fd) => readlinkSafe(`/proc/${pid}/fd/${fd}`).includes("/attachments/")).length;
      await (await fetch(`${app.url}${path}`, { headers: reader })).arrayBuffer(); // the route's code is loaded
      const whole = await watch(app.url, pid, () =>
        Promise.all(Array.from({ length: 20 }, async () => sha256(new Uint8Array(await (await fetch(`${app.url}${path}`, { headers: reader })).arrayBuffer())))),
      );
      expect(new Set(whole.result)).toEqual(new Set([file.sha256]));
      expect(whole.grewMb).toBeLessThan(80);
      // 20 clients that read the first MiB and go away: each answer ends, and its file is closed.
      const cut = await watch(app.url, pid, () =>
        Promise.all(
          Array.from(
            { length: 20 },
            () =>
              new Promise<number>((resolve, reject) => {
                let got = 0;
                http
                  .get(new URL(path, app.url), { headers: reader, agent: false }, (response) => {
                    response.on("data", (chunk: Buffer) => {
                      got += chunk.byteLength;
                      if (got >= 1024 * 1024) response.destroy();
                    });
                    response.on("close", () => resolve(got));
                  })
                  .on("error", reject);
              }),
          ),
        ),
      );
      expect(cut.result.every((got) => got >= 1024 * 1024 && got < data.byteLength)).toBe(true);
      // HEAD asks for the headers only: no file is opened for it (a stream made for it was never read, nor its file closed).
      // (node:http, not fetch: the e2e setup holds every fetch's answer to the OpenAPI document, which lists GET, not the HEAD every GET answers.)
      const head = () =>
        new Promise<[number, string]>((resolve, reject) =>
          http
            .request(new URL(path, app.url), { method: "HEAD", headers: reader, agent: false }, (response) => {
              response.resume();
              resolve([response.statusCode!, String(response.headers["content-length"])]);
            })
            .on("error", reject)
            .end(),
        );
      expect(await Promise.all(Array.from({ length: 20 }, head))).toEqual(Array(20).fill([200, String(data.byteLength)]));
      await expect.poll(openFiles, { timeout: 10_000 }).toBe(0);
      const range = await fetch(`${app.url}${path}`, { headers: { ...reader, range: "bytes=1048576-1048585" } });
      expect([range.status, range.headers.get("content-length"), Buffer.from(await range.arrayBuffer())]).toEqual([206, "10", data.subarray(1048576, 1048586)]);
    } finally {
      await app.stop();
    }
  });

  it("resumes a download cut off by killing the server, from another server, to the right SHA-256", async () => {
    const env = { DATABASE_URL: process.env.DATABASE_URL!, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET! };
    const first = await startApp({ port: await freePort(), quiet: true, env });
    let second: RunningApp | undefined;
    try {
      const url = new URL(path, first.url);
      // Read 4 MiB, stop reading, kill the server (SIGKILL: no goodbye), and keep what arrived.
      const part = await new Promise<{ bytes: Buffer; etag: string }>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let got = 0;
        let killed = false;
        const request = http.get(url, { headers: reader }, (response) => {
          expect(response.statusCode).toBe(200);
          const etag = String(response.headers.etag);
          const done = () => resolve({ bytes: Buffer.concat(chunks), etag });
          response.on("data", (chunk: Buffer) => {
            chunks.push(chunk);
            got += chunk.byteLength;
            if (got >= 4 * 1024 * 1024 && !killed) {
              killed = true;
              response.pause();
              first.child.kill("SIGKILL");
              first.child.once("exit", () => response.resume());
            }
          });
          response.on("end", () => reject(new Error("the download was not cut off")));
          response.on("error", done);
          response.on("aborted", done);
          response.on("close", done);
        });
        request.on("error", reject);
      });
      expect(part.bytes.byteLength).toBeGreaterThanOrEqual(4 * 1024 * 1024);
      expect(part.bytes.byteLength).toBeLessThan(data.byteLength);
      second = await startApp({ port: await freePort(), quiet: true, env });
      const rest = await fetch(`${second.url}${path}`, { headers: { ...reader, range: `bytes=${part.bytes.byteLength}-`, "if-range": part.etag } });
      expect([rest.status, rest.headers.get("content-range")]).toEqual([206, `bytes ${part.bytes.byteLength}-${data.byteLength - 1}/${data.byteLength}`]);
      const whole = Buffer.concat([part.bytes, Buffer.from(await rest.arrayBuffer())]);
      expect(sha256(whole)).toBe(file.sha256);
    } finally {
      await Promise.all([first.stop(), second?.stop()]);
    }
  });
});

describe("a CSV data file's preview through the app", () => {
  it("is computed while the multipart upload streams in and answered by GET …/attachments/{id}/preview to its readers only", async () => {
    const { slug: own, organizer: by } = await publishedCompetition();
    const rows = Array.from({ length: 5_000 }, (_, i) => `${i},${i % 10 ? i * 2 : "NA"},"a ""quoted"" ${i % 3}"`);
    const csv = new TextEncoder().encode(`\uFEFFid,y,note\r\n${rows.join("\r\n")}\r\n`);
    const sent = await upload(APP_URL, own, by, { bytes: csv, filename: "train.csv" });
    const answer = await fetch(`${APP_URL}/api/v1/competitions/${own}/attachments/${sent.id}/preview`, { headers: (await newCompetitor(own)).auth });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      ...sent,
      preview: {
        kind: "csv",
        header: ["id", "y", "note"],
        columns: 3,
        rows: 5_000,
        ragged: 0,
        preview: Array.from({ length: 10 }, (_, i) => [String(i), i % 10 ? String(i * 2) : "NA", `a "quoted" ${i % 3}`]),
        summaries: [
          { name: "id", type: "integer", missing: 0, distinct: 1000, distinctExact: false, min: 0, max: 4999, earliest: null, latest: null },
          { name: "y", type: "integer", missing: 500, distinct: 1000, distinctExact: false, min: 2, max: 9998, earliest: null, latest: null },
          { name: "note", type: "text", missing: 0, distinct: 3, distinctExact: true, min: null, max: null, earliest: null, latest: null },
        ],
      },
    });
    expect(sent.sha256).toBe(sha256(csv));
    expect((await fetch(`${APP_URL}/api/v1/competitions/${own}/attachments/${sent.id}/preview`)).status).toBe(401);
    expect((await fetch(`${APP_URL}/api/v1/competitions/${own}/attachments/${sent.id}/preview`, { headers: (await newApiUser("stranger")).auth })).status).toBe(403);
  });
});

describe("a data file's name and media type as sent", () => {
  it("keeps a UTF-8 name sent as multipart, and refuses a resumable upload's media type HTTP cannot carry back, naming it", async () => {
    const { slug: own, organizer: by } = await publishedCompetition();
    const reader = (await newCompetitor(own)).auth;
    const csv = new TextEncoder().encode("id,x\n1,2\n");
    // Browsers, curl and Python's requests send the name in UTF-8; it was kept as "donnÃ©es…" (read as latin-1).
    // (The part's media type is its type and subtype, as busboy reads them: no parameters.)
    const named = await upload(APP_URL, own, by, { bytes: csv, filename: "données 😀.csv", type: 'text/csv; charset="utf-8"' });
    const { attachments } = await (await fetch(`${APP_URL}/api/v1/competitions/${own}/attachments`)).json();
    expect(attachments.map((a: { filename: string; contentType: string }) => [a.filename, a.contentType])).toEqual([["données 😀.csv", "text/csv"]]);
    const download = await fetch(`${APP_URL}/api/v1/competitions/${own}/attachments/${named.id}`, { headers: reader });
    expect([download.status, download.headers.get("content-type"), download.headers.get("content-disposition"), await download.text()]).toEqual([
      200,
      "text/csv",
      `attachment; filename="donn_es _.csv"; filename*=UTF-8''${encodeURIComponent("données 😀.csv")}`,
      "id,x\n1,2\n",
    ]);
    // A resumable upload declares its media type in JSON: one with a line break or a character above
    // U+00FF was kept, and the file's every download answered 500 (no header can carry it).
    for (const contentType of ["text/csv\r\nX-Evil: 1", "text/csv; x=€"]) {
      const answer = await fetch(`${APP_URL}/api/v1/competitions/${own}/attachments/uploads`, {
        method: "POST",
        headers: { ...by, "content-type": "application/json" },
        body: JSON.stringify({ name: "odd.csv", size: 10, contentType }),
      });
      expect([answer.status, (await answer.json()).error.details]).toEqual([
        422,
        [{ path: "contentType", message: "the content type is a media type such as text/csv or application/zip (printable ASCII)" }],
      ]);
    }
  });
});

describe("a data file through an app on the S3 store", () => {
  const on = appOnS3();

  it("streams the upload into the bucket and redirects downloads to a signed URL that serves the file and its ranges", async () => {
    const bytes = data.subarray(0, 20 * 1024 * 1024 + 7);
    const stored = await upload(on.app.url, slug, organizer, { bytes, filename: "from-s3.bin" });
    expect(stored).toMatchObject({ size: bytes.byteLength, sha256: sha256(bytes) });
    const redirect = await fetch(`${on.app.url}/api/v1/competitions/${slug}/attachments/${stored.id}`, { headers: reader, redirect: "manual" });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get("location")!);
    expect(location.origin).toBe(on.s3.endpoint);
    expect(location.searchParams.get("X-Amz-Expires")).toBe("300");
    const whole = await fetch(location);
    expect(whole.headers.get("content-disposition")).toBe(`attachment; filename="from-s3.bin"; filename*=UTF-8''from-s3.bin`);
    expect(sha256(new Uint8Array(await whole.arrayBuffer()))).toBe(sha256(bytes));
    // A client that follows the redirect keeps its Range.
    const part = await fetch(`${on.app.url}/api/v1/competitions/${slug}/attachments/${stored.id}`, { headers: { ...reader, range: "bytes=5-14" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(5, 15))).toBe(true);
  });
});
