// `quiltboard push SLUG FILE`: a data file of any size sent as a resumable upload (docs/api.md
// "Resumable uploads"): declared with its SHA-256, then sent a part at a time, each part retried
// after a failure; an interrupted push (a dropped connection, a server restarted, the command killed)
// resumes where it stopped when run again for the same file, by the upload id remembered in
// ~/.quiltboard/uploads.json under the file's path, size and modification time.
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Client, CliError, configFile } from "./client";

type Upload = { id: string; size: number; partBytes: number; partCount: number; received: number[]; receivedBytes: number };
export type PushedFile = { id: string; filename: string; size: number; sha256: string; resumed: boolean };

/** Attempts per part, and the wait before each retry (1 s, 2 s, 4 s, …). */
const ATTEMPTS = 4;

/** The uploads in progress, by file: `{ "<slug> <path> <size> <mtime>": "<upload id>" }`, beside the credentials file. */
function uploadsFile(): string {
  return path.join(path.dirname(configFile()), "uploads.json");
}
function readUploads(): Record<string, string> {
  const file = uploadsFile();
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  } catch {
    return {};
  }
}
function rememberUpload(key: string, id: string | null): void {
  const uploads = readUploads();
  if (id) uploads[key] = id;
  else delete uploads[key];
  mkdirSync(path.dirname(uploadsFile()), { recursive: true, mode: 0o700 });
  writeFileSync(uploadsFile(), `${JSON.stringify(uploads, null, 2)}\n`, { mode: 0o600 });
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function readSlice(file: string, start: number, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file, { start, end: start + length - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function pushFile(client: Client, slug: string, file: string, progress: (line: string) => void): Promise<PushedFile> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new CliError(`${file}: no such file`, 2);
  const { size, mtimeMs } = statSync(file);
  const base = `/api/v1/competitions/${encodeURIComponent(slug)}/attachments/uploads`;
  const key = `${slug} ${realpathSync(file)} ${size} ${Math.floor(mtimeMs)}`;
  let upload: Upload | null = null;
  const known = readUploads()[key];
  if (known) upload = await client.request<Upload>("GET", `${base}/${known}`).catch(() => null);
  const resumed = upload !== null;
  if (!upload) {
    progress(`${path.basename(file)}: computing its SHA-256`);
    upload = await client.request<Upload>("POST", base, { json: { name: path.basename(file), size, sha256: await sha256Of(file) } });
    rememberUpload(key, upload.id);
  } else progress(`${path.basename(file)}: resuming, ${upload.received.length} of ${upload.partCount} parts already there`);

  const have = new Set(upload.received);
  let sent = upload.receivedBytes;
  for (let number = 1; number <= upload.partCount; number++) {
    if (have.has(number)) continue;
    const start = (number - 1) * upload.partBytes;
    const bytes = await readSlice(file, start, Math.min(upload.partBytes, size - start));
    for (let attempt = 1; ; attempt++) {
      try {
        await client.fetch("PUT", `${base}/${upload.id}/parts/${number}`, { body: new Uint8Array(bytes), contentType: "application/octet-stream" });
        break;
      } catch (error) {
        if (attempt >= ATTEMPTS)
          throw new CliError(`part ${number} of ${upload.partCount} failed ${ATTEMPTS} times (${(error as Error).message}); run the same command again to resume`);
        progress(`part ${number}: ${(error as Error).message}; retrying`);
        await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1)));
      }
    }
    sent += bytes.length;
    progress(`${path.basename(file)}: ${((100 * sent) / size).toFixed(1)}% (${number}/${upload.partCount} parts)`);
  }
  const listed = await client.request<{ id: string; filename: string; size: number; sha256: string }>("POST", `${base}/${upload.id}/complete`);
  rememberUpload(key, null);
  return { ...listed, resumed };
}
