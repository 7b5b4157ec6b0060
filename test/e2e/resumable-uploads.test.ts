import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_BIN } from "@/scripts/cli-package";
import { startApp, type RunningApp } from "@/scripts/app";
import { freePort } from "@/scripts/db/admin";
import { APP_URL, parseAnswer, publishedCompetition } from "./helpers";

// Resumable uploads through the running app, as clients meet them: an app killed (SIGKILL) in the
// middle of a part, another started on the same database and store, and the upload resumed to the
// right SHA-256, with nothing of it listed or served before; and `quiltboard push` doing the same
// by itself when run again.

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const env = () => ({ DATABASE_URL: process.env.DATABASE_URL!, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET! });
type Upload = { id: string; partBytes: number; partCount: number; received: number[] };

async function call<T>(base: string, method: string, pathname: string, auth: Record<string, string>, body?: unknown): Promise<{ status: number; body: T }> {
  const answer = await fetch(`${base}${pathname}`, {
    method,
    headers: { ...auth, ...(body instanceof Uint8Array ? { "content-type": "application/octet-stream" } : body ? { "content-type": "application/json" } : {}) },
    body: body instanceof Uint8Array ? (body as BodyInit) : body ? JSON.stringify(body) : undefined,
  });
  return { status: answer.status, body: (await answer.json()) as T };
}

/** Starts sending part `number` of `bytes`, and kills `app` (SIGKILL) once 2 MiB of it are written: the request dies unanswered. */
function killDuringPart(app: RunningApp, url: string, auth: Record<string, string>, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const request = http.request(url, { method: "PUT", headers: { ...auth, "content-type": "application/octet-stream", "content-length": bytes.length } });
    request.on("response", () => resolve());
    request.on("error", () => resolve());
    request.write(bytes.subarray(0, 2 * MiB));
    setTimeout(() => app.child.kill("SIGKILL"), 1000);
  });
}

describe("a resumable upload through the app", () => {
  it("resumes after the app was killed in the middle of a part, on another app, to the right SHA-256, listing nothing before", { timeout: 300_000 }, async () => {
    const { slug, organizer } = await publishedCompetition();
    const file = randomBytes(3 * 5 * MiB + 4321);
    const base = `/api/v1/competitions/${slug}/attachments`;
    const first = await startApp({ port: await freePort(), quiet: true, env: env() });
    let second: RunningApp | undefined;
    try {
      const started = await call<Upload>(first.url, "POST", `${base}/uploads`, organizer, { name: "big.bin", size: file.length, sha256: sha256(file), partBytes: 5 * MiB });
      expect(started.status).toBe(201);
      const { id, partCount, partBytes } = started.body;
      expect(partCount).toBe(4);
      const part = (n: number) => file.subarray((n - 1) * partBytes, n * partBytes);
      expect((await call(first.url, "PUT", `${base}/uploads/${id}/parts/1`, organizer, new Uint8Array(part(1)))).status).toBe(200);
      await killDuringPart(first, `${first.url}${base}/uploads/${id}/parts/2`, organizer, part(2));
      await new Promise((resolve) => (first.child.exitCode !== null ? resolve(null) : first.child.once("exit", resolve)));

      second = await startApp({ port: await freePort(), quiet: true, env: env() });
      const state = await call<Upload>(second.url, "GET", `${base}/uploads/${id}`, organizer);
      expect(state.body.received).toEqual([1]);
      expect((await call<{ attachments: unknown[] }>(second.url, "GET", base, organizer)).body.attachments).toEqual([]);
      for (const n of [2, 3, 4]) expect((await call(second.url, "PUT", `${base}/uploads/${id}/parts/${n}`, organizer, new Uint8Array(part(n)))).status).toBe(200);
      const done = await call<{ id: string; size: number; sha256: string }>(second.url, "POST", `${base}/uploads/${id}/complete`, organizer);
      expect([done.status, done.body.size, done.body.sha256]).toEqual([201, file.length, sha256(file)]);
      const download = await fetch(`${second.url}${base}/${done.body.id}`, { headers: organizer });
      expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(file));
      expect((await call(second.url, "GET", `${base}/uploads/${id}`, organizer)).status).toBe(404);
    } finally {
      await Promise.all([first.stop(), second?.stop()]);
    }
  });

  it("quiltboard push resumes an upload cut off by killing the app, when run again", { timeout: 300_000 }, async () => {
    const { slug, organizer } = await publishedCompetition();
    const dir = mkdtempSync(path.join(tmpdir(), "quiltboard-push-"));
    const data = path.join(dir, "train.bin");
    const file = randomBytes(10 * 8 * MiB + 99);
    writeFileSync(data, file);
    const push = (url: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI_BIN, "push", slug, data], {
          env: { ...process.env, QUILTBOARD_URL: url, QUILTBOARD_TOKEN: organizer.authorization.replace("Bearer ", ""), QUILTBOARD_CONFIG_DIR: dir },
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
      });
    const first = await startApp({ port: await freePort(), quiet: true, env: env() });
    let second: RunningApp | undefined;
    try {
      let ended = false;
      const cut = push(first.url).finally(() => (ended = true));
      // Once the first part is in, the app dies: the push fails after its retries.
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        if (ended) throw new Error(`the push ended before the app was killed: ${JSON.stringify(await cut)}`);
        if (!existsSync(path.join(dir, "uploads.json"))) continue;
        const uploads = JSON.parse(readFileSync(path.join(dir, "uploads.json"), "utf8")) as Record<string, string>;
        const id = Object.values(uploads)[0];
        if (!id) continue;
        const state = await call<Upload>(first.url, "GET", `/api/v1/competitions/${slug}/attachments/uploads/${id}`, organizer);
        if (state.body.received.length >= 1) break;
      }
      first.child.kill("SIGKILL");
      const failed = await cut;
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/failed 4 times .*; run the same command again to resume\n$/);

      second = await startApp({ port: await freePort(), quiet: true, env: env() });
      const resumed = await push(second.url);
      expect(resumed.code).toBe(0);
      const already = Number(/train\.bin: resuming, (\d+) of 11 parts already there/.exec(resumed.stderr)?.[1]);
      expect(already).toBeGreaterThanOrEqual(1);
      expect(already).toBeLessThan(11);
      expect(resumed.stdout).toBe(`train.bin: ${file.length} bytes, SHA-256 ${sha256(file)} (resumed)\n`);
      expect(JSON.parse(readFileSync(path.join(dir, "uploads.json"), "utf8"))).toEqual({});
    } finally {
      await Promise.all([first.stop(), second?.stop()]);
    }
  });
});

/**
 * PUTs `declared` bytes' worth of headers but only `body` over a plain TCP connection, then either
 * keeps the connection open or half-closes it (`end`): the answer, if any, and when it came.
 */
function shortPut(
  pathname: string,
  auth: Record<string, string>,
  declared: number,
  body: Buffer,
  end: boolean,
): Promise<{ status: number | null; message: string | null; ms: number }> {
  const url = new URL(pathname, APP_URL);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
    let received = Buffer.alloc(0);
    const done = () => {
      const answer = parseAnswer(received);
      socket.destroy();
      resolve({ status: answer?.status ?? null, message: answer?.body.error?.message ?? null, ms: performance.now() - started });
    };
    socket.on("data", (d: Buffer) => {
      received = Buffer.concat([received, d]);
      if (parseAnswer(received)) done();
    });
    socket.on("error", () => {});
    socket.on("close", done);
    const head = [
      `PUT ${url.pathname} HTTP/1.1`,
      `Host: ${url.host}`,
      ...Object.entries(auth).map(([k, v]) => `${k}: ${v}`),
      "Content-Type: application/octet-stream",
      `Content-Length: ${declared}`,
      "",
      "",
    ];
    socket.write(head.join("\r\n"));
    socket.write(body);
    if (end) socket.end();
    setTimeout(done, 60_000).unref();
  });
}

describe("a resumable upload's parts, sent wrong", () => {
  it("names a part number that is not a number (422), and answers a part shorter than its Content-Length in seconds, keeping nothing of it", { timeout: 120_000 }, async () => {
    const { slug, organizer } = await publishedCompetition();
    const base = `/api/v1/competitions/${slug}/attachments/uploads`;
    const started = await call<Upload>(APP_URL, "POST", base, organizer, { name: "short.bin", size: 10 * MiB, partBytes: 5 * MiB });
    const { id } = started.body;
    const named = await call<{ error: unknown }>(APP_URL, "PUT", `${base}/${id}/parts/first`, organizer, new Uint8Array(5 * MiB));
    expect([named.status, named.body.error]).toEqual([
      422,
      {
        code: "unprocessable_entity",
        message: "n: the part number must be a whole number from 1 to 2",
        details: [{ path: "n", message: "the part number must be a whole number from 1 to 2" }],
      },
    ]);
    // The client stops sending but keeps the connection: the upload pace (3 s without 192 KiB) answers, not Node's request timeout.
    const open = await shortPut(`${base}/${id}/parts/1`, organizer, 5 * MiB, randomBytes(MiB), false);
    expect([open.status, open.message]).toEqual([408, expect.stringMatching(/^the part arrived too slowly \(\d+ bytes in 3 s; at least 64 KiB a second are needed\)$/)]);
    expect(open.ms).toBeLessThan(10_000);
    // The client half-closes its side: Node's HTTP parser sees the body end short and answers 400 itself (no JSON of the app's) at once.
    const ended = await shortPut(`${base}/${id}/parts/1`, organizer, 5 * MiB, randomBytes(MiB), true);
    expect([ended.status, ended.message]).toEqual([400, null]);
    expect(ended.ms).toBeLessThan(5_000);
    expect((await call<Upload>(APP_URL, "GET", `${base}/${id}`, organizer)).body.received).toEqual([]);
  });
});
