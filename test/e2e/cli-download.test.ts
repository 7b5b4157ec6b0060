import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "@/scripts/app";
import { CLI_BIN } from "@/scripts/cli-package";
import { freePort } from "@/scripts/db/admin";
import { startS3, type S3Peer } from "@/scripts/support/s3";
import { api, APP_URL, newCompetitor, publishedCompetition, PYTHON, type Run, runProgram } from "./helpers";

// `quiltboard download` resuming a data file cut off in the middle (docs/clients.md), from the app
// and (with the Python client too) from the S3 store's signed URL, and `quiltboard list` searching
// and filtering the competitions, against the built app.

function quiltboard(args: string[], env: Record<string, string>): Promise<Run> {
  return runProgram(process.execPath, [CLI_BIN, ...args], { env: { QUILTBOARD_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), "quiltboard-config-")), ...env } });
}

type Proxy = {
  url: string;
  /** the bytes of body the next download gets before its connection is closed (null: all of it) */
  cutNext: number | null;
  downloads: { range: string | null; ifRange: string | null; status: number }[];
  stop: () => Promise<void>;
};

/**
 * A proxy on 127.0.0.1 in front of `target` that passes a download (a request `isDownload` names)
 * on only up to `cutNext` bytes of its body, when set, and then closes the connection (its
 * Content-Length promising more); it records each download's Range, If-Range and the status
 * `target` answered. `keepHost` forwards the Host header as it came (a signed URL signs it).
 */
async function cuttingProxy(target: string, options: { cut: number | null; isDownload: (url: URL) => boolean; keepHost?: boolean }): Promise<Proxy> {
  const proxy = { cutNext: options.cut, downloads: [] as Proxy["downloads"] };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url!, target);
    // Not Expect: this server has answered its 100-continue already.
    const asked = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== "expect"));
    const headers = options.keepHost ? asked : { ...asked, host: url.host };
    const forward = http.request(url, { method: request.method, headers }, (answer) => {
      const cut = request.method === "GET" && options.isDownload(url) ? proxy.cutNext : null;
      if (request.method === "GET" && options.isDownload(url)) {
        proxy.downloads.push({ range: request.headers.range ?? null, ifRange: (request.headers["if-range"] as string | undefined) ?? null, status: answer.statusCode! });
        proxy.cutNext = null;
      }
      response.writeHead(answer.statusCode!, answer.headers);
      if (cut === null) return void answer.pipe(response);
      let sent = 0;
      answer.on("data", (chunk: Buffer) => {
        if (sent >= cut) return;
        const piece = chunk.subarray(0, cut - sent);
        sent += piece.byteLength;
        if (sent < cut) return void response.write(piece);
        answer.destroy();
        // end, not destroy: what was written still goes out, then the connection closes.
        response.write(piece, () => response.socket?.end());
      });
    });
    forward.on("error", () => response.socket?.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A data file's download from the app. */
const attachmentDownload = (url: URL) => /\/attachments\/[0-9a-f-]{36}$/.test(url.pathname);

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
// 6 MiB of random bytes, cut off after 2 MiB.
const data = randomBytes(6 * 1024 * 1024);
const CUT = 2 * 1024 * 1024;
let slug: string;
let me: Record<string, string>;

beforeAll(async () => {
  let organizer: { authorization: string };
  ({ slug, organizer } = await publishedCompetition());
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(data)], { type: "application/octet-stream" }), "big.bin");
  expect((await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments`, { method: "POST", headers: organizer, body: form })).status).toBe(201);
  me = { QUILTBOARD_TOKEN: (await newCompetitor(slug)).auth.authorization.replace("Bearer ", ""), QUILTBOARD_URL: APP_URL };
});

describe("quiltboard download", () => {
  let proxy: Proxy;
  afterAll(() => proxy?.stop());

  it("keeps a download cut off in the middle as NAME.part, resumes it with Range and If-Range, and renames it once its SHA-256 is the listed one", async () => {
    proxy = await cuttingProxy(APP_URL, { cut: CUT, isDownload: attachmentDownload });
    const dir = mkdtempSync(path.join(tmpdir(), "quiltboard-resume-"));
    const part = path.join(dir, "big.bin.part");
    const cut = await quiltboard(["download", slug, "-p", dir, "--url", proxy.url], me);
    expect(cut.code).toBe(1);
    // The part holds what the command read before the cut (Node's fetch drops what it had queued
    // but not yet handed over when the connection ends early): at most the 2 MiB sent.
    const kept = readFileSync(part);
    expect(kept.byteLength).toBeGreaterThan(CUT / 2);
    expect(kept.byteLength).toBeLessThanOrEqual(CUT);
    expect(kept.equals(data.subarray(0, kept.byteLength))).toBe(true);
    const count = (n: number) => n.toLocaleString("en");
    expect(cut.stderr).toMatch(
      new RegExp(
        `^quiltboard: big\\.bin: the download was cut off after ${count(kept.byteLength)} of 6,291,456 bytes \\([^)]+\\); ${part} keeps them: run the command again to resume\n$`,
      ),
    );
    expect(readdirSync(dir).sort()).toEqual(["big.bin.part", "big.bin.part.etag"]);
    expect(readFileSync(`${part}.etag`, "utf8")).toBe(`"${sha256(data)}"\n`);

    const resumed = await quiltboard(["download", slug, "-p", dir, "--url", proxy.url], me);
    expect(resumed).toEqual({ code: 0, stdout: `${dir}/big.bin (6,291,456 bytes, resumed after ${count(kept.byteLength)} bytes)\n`, stderr: "" });
    expect(proxy.downloads).toEqual([
      { range: null, ifRange: null, status: 200 },
      { range: `bytes=${kept.byteLength}-`, ifRange: `"${sha256(data)}"`, status: 206 },
    ]);
    expect(sha256(readFileSync(path.join(dir, "big.bin")))).toBe(sha256(data));
    expect(readdirSync(dir)).toEqual(["big.bin"]);
    // There with the listed SHA-256: skipped, as before.
    expect((await quiltboard(["download", slug, "-p", dir], me)).stdout).toBe(`${dir}/big.bin: already there (the same SHA-256), skipped; -o downloads it again\n`);
  });

  it("deletes a corrupted partial download and says so, and fetches a part of another version whole", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "quiltboard-corrupt-"));
    const part = path.join(dir, "big.bin.part");
    const corrupted = Buffer.from(data.subarray(0, CUT));
    corrupted[12345] ^= 0xff; // one byte flipped on the disk
    writeFileSync(part, corrupted);
    writeFileSync(`${part}.etag`, `"${sha256(data)}"\n`);
    expect(await quiltboard(["download", slug, "-p", dir, "--json"], me)).toEqual({
      code: 1,
      stdout: "",
      stderr: `quiltboard: big.bin: the whole file (6,291,456 bytes) has another SHA-256 than the server lists, so the partial download ${part} was deleted: run the command again to download it afresh\n`,
    });
    expect(readdirSync(dir)).toEqual([]);

    // A part of another version (If-Range with its old ETag): the app sends the whole file, which replaces the part.
    writeFileSync(part, data.subarray(0, CUT));
    writeFileSync(`${part}.etag`, `"${"0".repeat(64)}"\n`);
    const proxy = await cuttingProxy(APP_URL, { cut: null, isDownload: attachmentDownload });
    try {
      const whole = await quiltboard(["download", slug, "-p", dir, "--json", "--url", proxy.url], me);
      expect([whole.code, JSON.parse(whole.stdout)]).toEqual([0, [{ file: path.join(dir, "big.bin"), bytes: data.byteLength, skipped: false, resumedFrom: 0 }]]);
      expect(proxy.downloads).toEqual([{ range: `bytes=${CUT}-`, ifRange: `"${"0".repeat(64)}"`, status: 200 }]);
    } finally {
      await proxy.stop();
    }
    expect(sha256(readFileSync(path.join(dir, "big.bin")))).toBe(sha256(data));
    expect(existsSync(part)).toBe(false);
  });
});

describe("a download behind the S3 store's redirect, cut off between the signed URL and the client", () => {
  let s3: S3Peer;
  let proxy: Proxy;
  let app: RunningApp;
  beforeAll(async () => {
    s3 = await startS3();
    // The app signs its URLs for the proxy, which passes them on to the S3 server.
    proxy = await cuttingProxy(s3.endpoint, { cut: null, keepHost: true, isDownload: (url) => url.searchParams.has("X-Amz-Signature") });
    app = await startApp({
      port: await freePort(),
      quiet: true,
      env: { DATABASE_URL: process.env.DATABASE_URL!, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET!, ...s3.env, S3_ENDPOINT: proxy.url },
    });
  }, 180_000);
  afterAll(async () => {
    await app?.stop();
    await proxy?.stop();
    await s3?.stop();
  });

  it("resumes with the S3 ETag as If-Range and ends with the listed SHA-256, from the command and from Python", { timeout: 120_000 }, async () => {
    const { slug: other, organizer } = await publishedCompetition();
    const bytes = data.subarray(0, 3 * 1024 * 1024 + 5);
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), "from-s3.bin");
    expect((await fetch(`${app.url}/api/v1/competitions/${other}/attachments`, { method: "POST", headers: organizer, body: form })).status).toBe(201);
    const token = (await newCompetitor(other)).auth.authorization.replace("Bearer ", "");
    const cut = 1024 * 1024;

    const dir = mkdtempSync(path.join(tmpdir(), "quiltboard-s3-"));
    proxy.cutNext = cut;
    const first = await quiltboard(["download", other, "-p", dir], { QUILTBOARD_URL: app.url, QUILTBOARD_TOKEN: token });
    expect([first.code, first.stderr]).toEqual([1, expect.stringMatching(/^quiltboard: from-s3\.bin: the download was cut off after [\d,]+ of 3,145,733 bytes/)]);
    const kept = statSync(path.join(dir, "from-s3.bin.part")).size;
    expect(kept).toBeGreaterThan(cut / 2);
    expect(kept).toBeLessThanOrEqual(cut);
    const etag = readFileSync(path.join(dir, "from-s3.bin.part.etag"), "utf8").trim();
    expect(etag).not.toBe(`"${sha256(bytes)}"`); // S3's own ETag
    const second = await quiltboard(["download", other, "-p", dir], { QUILTBOARD_URL: app.url, QUILTBOARD_TOKEN: token });
    expect(second).toEqual({ code: 0, stdout: `${dir}/from-s3.bin (3,145,733 bytes, resumed after ${kept.toLocaleString("en")} bytes)\n`, stderr: "" });
    expect(proxy.downloads).toEqual([
      { range: null, ifRange: null, status: 200 },
      { range: `bytes=${kept}-`, ifRange: etag, status: 206 },
    ]);
    expect(sha256(readFileSync(path.join(dir, "from-s3.bin")))).toBe(sha256(bytes));

    if (!PYTHON) return;
    proxy.downloads.length = 0;
    proxy.cutNext = cut;
    const where = mkdtempSync(path.join(tmpdir(), "quiltboard-s3-python-"));
    const script = [
      "import json, sys",
      "from quiltboard import Client, QuiltboardError",
      "client, tries = Client(sys.argv[1]), []",
      "for _ in range(2):",
      "    try:",
      "        tries.append(client.download(sys.argv[2]))",
      "    except QuiltboardError as e:",
      "        tries.append(str(e))",
      "print(json.dumps(tries))",
    ].join("\n");
    // Run asynchronously: the proxy and the S3 server answer from this process.
    const python = await runProgram(PYTHON, ["-c", script, `${app.url}/competitions/${other}`, where], { env: { PYTHONPATH: "clients/python", QUILTBOARD_TOKEN: token } });
    expect(python.stderr).toBe("");
    expect(JSON.parse(python.stdout)).toEqual([
      `from-s3.bin: the download was cut off after 1,048,576 of 3,145,733 bytes; ${where}/from-s3.bin.part keeps them: call download() again to resume`,
      [`${where}/from-s3.bin`],
    ]);
    expect(proxy.downloads).toEqual([
      { range: null, ifRange: null, status: 200 },
      { range: `bytes=${cut}-`, ifRange: etag, status: 206 },
    ]);
    expect(sha256(readFileSync(path.join(where, "from-s3.bin")))).toBe(sha256(bytes));
  });
});

describe("quiltboard list", () => {
  it("searches (-s/--search), filters by --status and --mine, and pages (--page) as Kaggle's competitions list", async () => {
    const word = `Clisearch${Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join("")}`;
    const { slug: ours, organizer } = await publishedCompetition();
    expect((await api(`/api/v1/competitions/${ours}`, { method: "PATCH", headers: organizer, body: { title: `${word} power` } })).status).toBe(200);
    const header = /^slug\s+title\s+status\s+metric\s+deadline \(UTC\)\s+teams\n/;
    const row = new RegExp(`^${ours} +${word} power +published +accuracy +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d +0$`);

    const found = await quiltboard(["competitions", "list", "-s", word.slice(0, -3).toLowerCase()], me);
    expect([found.code, found.stderr]).toEqual([0, ""]);
    expect(found.stdout).toMatch(header);
    expect(found.stdout.trim().split("\n").slice(1)).toEqual([expect.stringMatching(row)]);
    expect((await quiltboard(["list", "--search", `${word} pow`, "--status", "open", "-v"], me)).stdout).toMatch(
      new RegExp(`^slug,title,status,metric,ends_at,teams\n${ours},${word} power,published,accuracy,[^,]+,0\n$`),
    );
    expect(await quiltboard(["list", "-s", word, "--status", "closed"], me)).toEqual({ code: 0, stdout: "no competitions match\n", stderr: "" });
    expect(await quiltboard(["list", "-s", word, "--page", "2"], me)).toEqual({ code: 0, stdout: "no page 2: 1 competition matches\n", stderr: "" });
    // --mine: the competitions the caller is on a team of or organizes.
    const asOrganizer = { ...me, QUILTBOARD_TOKEN: organizer.authorization.replace("Bearer ", "") };
    expect(JSON.parse((await quiltboard(["list", "-s", word, "--mine", "--json"], asOrganizer)).stdout)).toMatchObject({ competitions: [{ slug: ours }], total: 1, page: 1 });
    expect(JSON.parse((await quiltboard(["list", "-s", word, "--mine", "--json"], me)).stdout)).toMatchObject({ competitions: [], total: 0 });
    expect(JSON.parse((await quiltboard(["list", "--mine", "--json"], me)).stdout).competitions.map((c: { slug: string }) => c.slug)).toEqual([slug]);
    expect(await quiltboard(["list", "--mine"], { QUILTBOARD_URL: APP_URL })).toEqual({
      code: 1,
      stdout: "",
      stderr: "quiltboard: not signed in: run quiltboard login, or set QUILTBOARD_TOKEN\n",
    });
    // A wrong command line is exit code 2, as every other; -s stays --show for leaderboard.
    expect(await quiltboard(["list", "--status", "finished"], me)).toEqual({
      code: 2,
      stdout: "",
      stderr: 'quiltboard: --status must be open, upcoming or closed (not "finished")\n',
    });
    expect(await quiltboard(["list", "--page", "0"], me)).toEqual({ code: 2, stdout: "", stderr: 'quiltboard: --page must be a whole number from 1 (not "0")\n' });
    expect(await quiltboard(["list", "-s"], me)).toMatchObject({ code: 2, stderr: expect.stringMatching(/^quiltboard: Option '-s, --search <value>' argument missing/) });
    expect((await quiltboard(["leaderboard", ours, "-s"], me)).stdout).toBe("no submissions yet\n");
  });
});
