import "server-only";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import yazl from "yazl";

/** One file of a zip: its name in the archive, its size, when it was made, and how to open its bytes (called when its turn comes). */
export type ZipEntry = { name: string; size: number; mtime: Date; open: () => Promise<ReadableStream<Uint8Array>> };

/**
 * A zip of `entries` written as it is read (yazl): each entry stored as it is (no compression: data
 * files are mostly compressed already, and a stored entry's size is known in advance), opened only
 * when the archive reaches it, its CRC-32 computed on the way and written after it (a data
 * descriptor), ZIP64 records wherever an entry or the archive passes 4 GiB or 65,535 entries. Nothing
 * is held but the entry being copied; the archive's exact size is known before its first byte.
 */
export async function zipStream(entries: ZipEntry[]): Promise<{ stream: ReadableStream<Uint8Array>; size: number }> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { compress: false, size: entry.size, mtime: entry.mtime }, (done) => {
      entry.open().then(
        (stream) => done(null, Readable.fromWeb(stream as NodeWebStream<Uint8Array>)),
        (error: Error) => done(error, undefined as unknown as Readable),
      );
    });
  }
  // yazl's types call the callback without its argument: the archive's size, or -1 when it cannot know it (never, with sizes and no compression).
  const size = await new Promise<number>((resolve) => (zip.end as (options: object, callback: (size: number) => void) => void)({}, resolve));
  if (size < 0) throw new Error("the zip's size is not known in advance");
  // An entry that cannot be read (yazl reports it on the ZipFile) fails the archive's stream: its reader sees it cut off.
  zip.on("error", (error: Error) => (zip.outputStream as Readable).destroy(error));
  return { stream: Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>, size };
}
