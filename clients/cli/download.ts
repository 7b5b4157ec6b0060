// A data file downloaded so that a cut-off connection loses nothing (docs/clients.md): the bytes go
// to NAME.part, the ETag of the answer they came from to NAME.part.etag; the next run asks for the
// rest (`Range: bytes=<what the part holds>-` with `If-Range: <that ETag>`, docs/api.md, Data
// files), and the file is renamed into place only once the whole of it has the SHA-256 the server
// lists. A part whose whole file has another SHA-256 is deleted.
import { createHash, type Hash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { CliError, type Client } from "./client";

/** What the attachment listing says of a file: the download is checked against it. */
export type ListedFile = { filename: string; size: number; sha256: string };

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

/** The part's hash so far, read as a stream. */
async function hashOf(file: string): Promise<Hash> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash;
}

/** What a part left by an earlier run holds: its length and the ETag it was fetched under (none: start afresh). */
function leftOver(part: string, tagFile: string, size: number): { offset: number; etag: string } | null {
  if (!existsSync(part) || !existsSync(tagFile) || !statSync(part).isFile()) return null;
  const etag = readFileSync(tagFile, "utf8").trim();
  const offset = statSync(part).size;
  return etag && offset > 0 && offset <= size ? { offset, etag } : null;
}

/**
 * Downloads `pathname` (a data file the listing describes as `listed`) into `target` through
 * `target.part`, resuming a part an earlier run left; the number of bytes the part held before
 * (0: from the start). A connection cut short keeps the part (exit code 1, "run the command again
 * to resume"); a whole file with another SHA-256 deletes it (exit code 1). `progress` reports on a
 * terminal.
 */
export async function downloadResumable(client: Client, pathname: string, target: string, listed: ListedFile, progress: boolean): Promise<number> {
  const part = `${target}.part`;
  const tagFile = `${part}.etag`;
  const name = path.basename(target);
  const left = leftOver(part, tagFile, listed.size);
  if (!left) rmSync(tagFile, { force: true });
  let offset = left?.offset ?? 0;
  let hash = left ? await hashOf(part) : createHash("sha256");
  let received = 0;

  // A part already whole (a run stopped before its rename) needs only its check.
  if (offset < listed.size || listed.size === 0) {
    const response = await client.fetch("GET", pathname, { headers: left ? { range: `bytes=${offset}-`, "if-range": left.etag } : {} });
    if (response.status === 206) {
      const range = response.headers.get("content-range") ?? "";
      if (!range.startsWith(`bytes ${offset}-`)) {
        await response.body?.cancel();
        throw new CliError(`${name}: the server sent the bytes "${range}" where the download resumes at ${offset}; ${part} is kept: run the command again`);
      }
    } else {
      // A whole file: the first request, or the file changed since the part was fetched (If-Range).
      offset = 0;
      hash = createHash("sha256");
      const etag = response.headers.get("etag");
      if (etag) writeFileSync(tagFile, `${etag}\n`);
      else rmSync(tagFile, { force: true });
    }
    const file = await open(part, offset > 0 ? "a" : "w");
    let cutOff: unknown = null;
    try {
      const report = progress && listed.size > 4 * 1024 * 1024 && process.stderr.isTTY;
      try {
        const reader = response.body?.getReader();
        while (reader) {
          const { done, value: chunk } = await reader.read();
          if (done) break;
          try {
            await file.write(chunk);
          } catch (error) {
            throw new CliError(
              `cannot write ${part} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); what arrived is kept: run the command again to resume`,
            );
          }
          hash.update(chunk);
          received += chunk.byteLength;
          if (report) process.stderr.write(`\rdownloading ${name}: ${Math.floor((100 * (offset + received)) / listed.size)} % of ${mib(listed.size)}`);
        }
      } catch (error) {
        if (error instanceof CliError) throw error;
        cutOff = error;
      }
      if (report) process.stderr.write("\n");
    } finally {
      await file.close();
    }
    // Node's fetch ends a body cut short with an error; a server that closes cleanly ends it early.
    if (cutOff !== null || offset + received < listed.size) {
      const why = cutOff === null ? "" : ` (${(cutOff as { cause?: { code?: string; message?: string } }).cause?.code ?? (cutOff as Error).message})`;
      throw new CliError(
        `${name}: the download was cut off after ${(offset + received).toLocaleString("en")} of ${listed.size.toLocaleString("en")} bytes${why}; ${part} keeps them: run the command again to resume`,
      );
    }
  }
  const total = offset + received;
  if (hash.digest("hex") !== listed.sha256) {
    rmSync(part, { force: true });
    rmSync(tagFile, { force: true });
    throw new CliError(
      `${name}: the whole file (${total.toLocaleString("en")} bytes) has another SHA-256 than the server lists, so the partial download ${part} was deleted: run the command again to download it afresh`,
    );
  }
  renameSync(part, target);
  rmSync(tagFile, { force: true });
  return offset;
}
