import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  abandonAttachmentUpload,
  completeAttachmentUpload,
  getAttachmentUpload,
  putAttachmentUploadPart,
  startAttachmentUpload,
  sweepExpiredUploads,
} from "@/lib/server/competitions/attachment-uploads";
import { getAttachment, listAttachments } from "@/lib/server/competitions/attachments";
import { getAttachmentPreview } from "@/lib/server/competitions/previews";
import { db } from "@/lib/server/platform/db";
import { draftCompetition, newUser, rejection } from "@/test/support/factories";
import { fileStores } from "../support/file-stores";

// Resumable uploads of data files, with each backend: parts sent in any order and again after a
// failure, nothing listed before the file is complete and its SHA-256 right, the limits checked
// before the first byte, and an abandoned or expired upload leaving nothing in the store.

const MiB = 1024 * 1024;
const PART = 5 * MiB;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const body = (bytes: Buffer) => new Response(new Uint8Array(bytes)).body!;
/** A body that brings `bytes` and then fails, as a connection dropped mid-part. */
const cutOff = (bytes: Buffer) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
    },
    pull(controller) {
      controller.error(new Error("the connection was closed"));
    },
  });
const part = (file: Buffer, n: number) => file.subarray((n - 1) * PART, n * PART);

const stores = fileStores();
const { saved } = stores;

/** Every file the store holds whose key contains `text` (a competition's id, an upload's id). */
async function storedKeys(text: string): Promise<string[]> {
  if (process.env.QUILTBOARD_FILES === "s3") {
    return (await stores.s3.keys()).filter((k) => k.includes(text));
  }
  const root = path.resolve(process.env.QUILTBOARD_FILES_DIR!);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((k) => k.includes(text));
}

describe.each(stores.backends)("resumable uploads in the %s store", (_kind, configure) => {
  beforeAll(() => configure());

  it("takes parts in any order and again after one failed, lists nothing before completion, and completes with the file's SHA-256", async () => {
    const { owner, slug, competition } = await draftCompetition();
    const file = randomBytes(2 * PART + 123_457);
    const started = await startAttachmentUpload(owner, slug, { name: "train.bin", size: file.length, sha256: sha256(file), partBytes: PART });
    expect(started).toMatchObject({ filename: "train.bin", size: file.length, partBytes: PART, partCount: 3, received: [], receivedBytes: 0 });

    expect(await putAttachmentUploadPart(owner, slug, started.id, 3, body(part(file, 3)))).toEqual({ number: 3, size: 123_457 });
    // Part 2's connection drops after 1 MiB: nothing of it is kept.
    await expect(putAttachmentUploadPart(owner, slug, started.id, 2, cutOff(part(file, 2).subarray(0, MiB)))).rejects.toThrow("the connection was closed");
    // A part of the wrong size is refused and not kept either.
    expect((await rejection(putAttachmentUploadPart(owner, slug, started.id, 1, body(part(file, 1).subarray(1))))).message).toBe(
      `this part must have exactly ${PART} bytes; ${PART - 1} arrived`,
    );
    expect((await rejection(putAttachmentUploadPart(owner, slug, started.id, 4, body(part(file, 1))))).status).toBe(404);
    await putAttachmentUploadPart(owner, slug, started.id, 1, body(part(file, 1)));
    expect(await getAttachmentUpload(owner, slug, started.id)).toMatchObject({ received: [1, 3], receivedBytes: PART + 123_457 });
    expect((await rejection(completeAttachmentUpload(owner, slug, started.id))).message).toBe("parts 2 have not arrived; send them, then complete");
    expect(await listAttachments(competition.id)).toEqual([]);

    await putAttachmentUploadPart(owner, slug, started.id, 2, body(part(file, 2)));
    const listed = await completeAttachmentUpload(owner, slug, started.id);
    expect(listed).toMatchObject({ filename: "train.bin", size: file.length, sha256: sha256(file) });
    expect((await listAttachments(competition.id)).map((a) => a.id)).toEqual([listed.id]);
    const download = await getAttachment(owner, slug, listed.id);
    expect(sha256(new Uint8Array(await new Response(await download.open()).arrayBuffer()))).toBe(sha256(file));
    // The parts are gone: the store holds the file alone, and the upload is over.
    const key = (await db.attachment.findUniqueOrThrow({ where: { id: listed.id } })).storageKey!;
    expect(await storedKeys(started.id)).toEqual([]);
    expect(await storedKeys(competition.id)).toEqual([key]);
    expect((await rejection(getAttachmentUpload(owner, slug, started.id))).status).toBe(404);
  });

  it("profiles a CSV sent in parts as one sent whole: its preview and summaries span the parts, a row cut between two included", async () => {
    const { owner, slug } = await draftCompetition();
    // 400,000 rows (about 6.6 MB): two parts, the boundary inside a row.
    const n = 400_000;
    const file = Buffer.from(`id,value\n${Array.from({ length: n }, (_, i) => `r${i},${i / 2}\n`).join("")}`);
    expect(file.length).toBeGreaterThan(PART);
    const started = await startAttachmentUpload(owner, slug, { name: "train.csv", size: file.length, partBytes: PART });
    for (const number of [1, 2]) await putAttachmentUploadPart(owner, slug, started.id, number, body(part(file, number)));
    const listed = await completeAttachmentUpload(owner, slug, started.id);
    const { preview } = await getAttachmentPreview(owner, slug, listed.id);
    if (preview?.kind !== "csv") throw new Error(`no CSV preview: ${JSON.stringify(preview)}`);
    expect([preview.header, preview.rows, preview.ragged, preview.preview.length, preview.preview.slice(0, 2)]).toEqual([
      ["id", "value"],
      n,
      0,
      10,
      [
        ["r0", "0"],
        ["r1", "0.5"],
      ],
    ]);
    expect(preview.summaries[1]).toMatchObject({
      name: "value",
      type: "number",
      missing: 0,
      distinct: 1000,
      distinctExact: false,
      min: 0,
      max: (n - 1) / 2,
    });
  });

  it("refuses a file whose SHA-256 is not the one declared, and keeps nothing of it", async () => {
    const { owner, slug, competition } = await draftCompetition();
    const file = randomBytes(PART + 10);
    const started = await startAttachmentUpload(owner, slug, { name: "x.bin", size: file.length, sha256: "0".repeat(64), partBytes: PART });
    await putAttachmentUploadPart(owner, slug, started.id, 1, body(part(file, 1)));
    await putAttachmentUploadPart(owner, slug, started.id, 2, body(part(file, 2)));
    const refused = await rejection(completeAttachmentUpload(owner, slug, started.id));
    expect([refused.status, refused.message]).toEqual([
      422,
      `the file's SHA-256 is ${sha256(file)}, not ${"0".repeat(64)} as declared: its parts are not the file; the upload is removed, start again`,
    ]);
    expect(await listAttachments(competition.id)).toEqual([]);
    expect(await storedKeys(started.id)).toEqual([]);
    expect(await storedKeys(competition.id)).toEqual([]);
    expect(await db.attachmentUpload.count({ where: { id: started.id } })).toBe(0);
  });

  it("removes an abandoned upload's parts at once, and an expired one's when the scheduler sweeps", async () => {
    const { owner, slug } = await draftCompetition();
    const file = randomBytes(PART + 10);
    const abandoned = await startAttachmentUpload(owner, slug, { name: "a.bin", size: file.length, partBytes: PART });
    await putAttachmentUploadPart(owner, slug, abandoned.id, 1, body(part(file, 1)));
    expect(await storedKeys(abandoned.id)).toEqual([expect.stringMatching(new RegExp(`^uploads/${abandoned.id}/1-[0-9a-f]{12}$`))]);
    await abandonAttachmentUpload(owner, slug, abandoned.id);
    expect(await storedKeys(abandoned.id)).toEqual([]);
    expect((await rejection(getAttachmentUpload(owner, slug, abandoned.id))).status).toBe(404);

    const expired = await startAttachmentUpload(owner, slug, { name: "b.bin", size: file.length, partBytes: PART });
    await putAttachmentUploadPart(owner, slug, expired.id, 2, body(part(file, 2)));
    await putAttachmentUploadPart(owner, slug, expired.id, 1, body(part(file, 1)));
    // Kept while parts arrive: its expiry is QUILTBOARD_RESUMABLE_HOURS (24) after the last.
    expect(Date.parse((await getAttachmentUpload(owner, slug, expired.id)).expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    await sweepExpiredUploads();
    expect(await storedKeys(expired.id)).toHaveLength(2);
    await db.attachmentUpload.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await sweepExpiredUploads()).toBeGreaterThanOrEqual(1);
    expect(await storedKeys(expired.id)).toEqual([]);
    expect(await db.attachmentUpload.count({ where: { id: expired.id } })).toBe(0);
  });
});

/** A body of `bytes` that sends all but its last byte at once and the last when `release` is called. */
function heldBody(bytes: Buffer): { body: ReadableStream<Uint8Array>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new Uint8Array(bytes.subarray(0, -1)));
      await released;
      controller.enqueue(new Uint8Array(bytes.subarray(-1)));
      controller.close();
    },
  });
  return { body, release };
}

describe.each(stores.backends)("a part that arrives while its upload changes, in the %s store", (_kind, configure) => {
  beforeAll(() => configure());

  it("keeps nothing of a part that arrives after its upload was abandoned or completed, and refuses it", async () => {
    const { owner, slug } = await draftCompetition();
    const file = randomBytes(PART + 10);
    const upload = await startAttachmentUpload(owner, slug, { name: "race.bin", size: file.length, partBytes: PART });
    const late = heldBody(part(file, 1));
    const sending = putAttachmentUploadPart(owner, slug, upload.id, 1, late.body);
    await abandonAttachmentUpload(owner, slug, upload.id);
    late.release();
    // It answered 200, and its 5 MiB stayed in the store with no upload to remove them.
    const refused = await rejection(sending);
    expect([refused.status, refused.message]).toEqual([404, "this upload was completed or abandoned while part 1 arrived; nothing of the part is kept"]);
    expect(await storedKeys(upload.id)).toEqual([]);

    const done = await startAttachmentUpload(owner, slug, { name: "done.bin", size: file.length, partBytes: PART });
    await putAttachmentUploadPart(owner, slug, done.id, 1, body(part(file, 1)));
    const again = heldBody(randomBytes(PART)); // part 1 once more, other bytes, still arriving when the file is completed
    const resending = putAttachmentUploadPart(owner, slug, done.id, 1, again.body);
    await putAttachmentUploadPart(owner, slug, done.id, 2, body(part(file, 2)));
    const listed = await completeAttachmentUpload(owner, slug, done.id);
    again.release();
    expect((await rejection(resending)).status).toBe(404);
    // The file is the parts as they were when it was completed; nothing of the upload is left.
    expect(listed.sha256).toBe(sha256(file));
    expect(await storedKeys(done.id)).toEqual([]);
  });

  it("replaces a part sent again, keeping only the bytes of the last sending", async () => {
    const { owner, slug } = await draftCompetition();
    const file = randomBytes(PART + 10);
    const upload = await startAttachmentUpload(owner, slug, { name: "again.bin", size: file.length, partBytes: PART });
    await putAttachmentUploadPart(owner, slug, upload.id, 1, body(randomBytes(PART)));
    await putAttachmentUploadPart(owner, slug, upload.id, 1, body(part(file, 1)));
    await putAttachmentUploadPart(owner, slug, upload.id, 2, body(part(file, 2)));
    expect(await storedKeys(upload.id)).toHaveLength(2);
    expect((await completeAttachmentUpload(owner, slug, upload.id)).sha256).toBe(sha256(file));
  });
});

describe("a resumable upload's limits, before its first byte", () => {
  beforeAll(() => (process.env = { ...saved, QUILTBOARD_DATA_FILE_BYTES: String(40 * MiB), QUILTBOARD_DATA_TOTAL_BYTES: String(60 * MiB) }));
  afterAll(() => (process.env = { ...saved }));

  it("refuses a file over the limit, a competition's total with the uploads in progress counted, and anyone but its uploader", async () => {
    const { owner, slug } = await draftCompetition();
    const tooLarge = await rejection(startAttachmentUpload(owner, slug, { name: "big.bin", size: 40 * MiB + 1 }));
    expect([tooLarge.status, tooLarge.message]).toEqual([413, "the attachment is larger than 40 MiB"]);
    const first = await startAttachmentUpload(owner, slug, { name: "a.bin", size: 35 * MiB });
    const over = await rejection(startAttachmentUpload(owner, slug, { name: "b.bin", size: 30 * MiB }));
    expect([over.status, over.message]).toEqual([413, "a competition's data files take at most 60 MiB in all; 35 MiB are taken"]);
    // Once the first is abandoned, its room is free again.
    await abandonAttachmentUpload(owner, slug, first.id);
    const second = await startAttachmentUpload(owner, slug, { name: "b.bin", size: 30 * MiB });

    const stranger = await newUser("stranger");
    // Another account (here one that does not see the draft, so for it there is no such competition) reaches none of it.
    expect((await rejection(putAttachmentUploadPart(stranger, slug, second.id, 1, body(randomBytes(10))))).status).toBe(404);
    expect((await rejection(getAttachmentUpload(stranger, slug, second.id))).status).toBe(404);
    expect((await rejection(startAttachmentUpload(owner, slug, { name: "../", size: 10 }))).message).toBe("the file needs a name");
  });
});
