import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { addAttachment, deleteAttachment, getAttachment, moveAttachmentsToStore } from "@/lib/server/competitions/attachments";
import { db } from "@/lib/server/platform/db";
import { claimLocalStore, fileStore } from "@/lib/server/platform/files";
import { draftCompetition, rejection, stream } from "@/test/support/factories";
import { fileStores } from "../support/file-stores";

// Data files in the file store, with each backend: streamed in, read back, replaced and deleted
// without leaving objects behind, and the files kept in the database before the store existed moved
// into it by a step that may be interrupted and run again.

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
const details = (name: string) => async () => ({ name, contentType: "text/csv", description: null });
const text = async (body: ReadableStream<Uint8Array>) => new Response(body).text();

const stores = fileStores();
const { saved } = stores;

/** A data file as the app kept it before the file store: its bytes in the row, no storage key. */
async function legacyFile(competitionId: string, filename: string, bytes: Buffer) {
  const [row] = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO attachments (id, competition_id, filename, content_type, size, sha256, data)
    VALUES (gen_random_uuid(), ${competitionId}::uuid, ${filename}, 'text/csv', ${bytes.byteLength}, ${sha256(bytes)}, ${bytes})
    RETURNING id::text`;
  return row.id;
}

describe.each(stores.backends)("data files in the %s store", (_kind, configure) => {
  beforeAll(() => configure());

  it("streams an upload into the store, serves it back by range, and removes the bytes of a replaced or deleted file", async () => {
    const { owner, slug } = await draftCompetition();
    const csv = "id,x\n" + Array.from({ length: 50_000 }, (_, i) => `${i},${i * 3}`).join("\n") + "\n";
    const first = await addAttachment(owner, slug, stream(csv, 7_000), details("train.csv"));
    expect(first).toMatchObject({ filename: "train.csv", size: Buffer.byteLength(csv), sha256: sha256(csv) });
    const firstKey = (await db.attachment.findUniqueOrThrow({ where: { id: first.id } })).storageKey!;
    expect(firstKey).toMatch(/^attachments\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
    const download = await getAttachment(owner, slug, first.id);
    expect(await text(await download.open())).toBe(csv);
    expect(await text(await download.open({ start: 5, end: 13 }))).toBe(csv.slice(5, 14));

    const replaced = await addAttachment(owner, slug, stream("id,x\n1,2\n"), details("train.csv"));
    expect(replaced.id).toBe(first.id);
    expect(await fileStore().stat(firstKey)).toBeNull();
    const secondKey = (await db.attachment.findUniqueOrThrow({ where: { id: first.id } })).storageKey!;
    expect(await fileStore().stat(secondKey)).toEqual({ size: 9 });
    await deleteAttachment(owner, slug, first.id);
    expect(await fileStore().stat(secondKey)).toBeNull();
  });

  it("leaves nothing in the store when the upload is refused after it was read (no name) or its body fails", async () => {
    const {
      owner,
      slug,
      competition: { id },
    } = await draftCompetition();
    expect((await rejection(addAttachment(owner, slug, stream("a\n1\n"), details("")))).message).toBe("the file needs a name");
    const failing = new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(new Error("the connection was closed")) });
    await expect(addAttachment(owner, slug, failing, details("x.csv"))).rejects.toThrow("the connection was closed");
    expect(await db.attachment.count({ where: { competitionId: id } })).toBe(0);
    // Only the competition's (empty) directory is left of either upload.
    if (process.env.QUILTBOARD_FILES !== "s3") {
      expect(readdirSync(path.resolve(process.env.QUILTBOARD_FILES_DIR!), { recursive: true }).filter((f) => String(f).includes(id))).toEqual([path.join("attachments", id)]);
    } else {
      expect(await stores.s3.keys(`attachments/${id}/`)).toEqual([]);
    }
  });

  it("moves the files kept in the database into the store, once, and finishes a move that was interrupted", async () => {
    const {
      competition: { id },
    } = await draftCompetition();
    const a = randomBytes(700_000);
    const b = Buffer.from("id,y\n1,0\n");
    const ids = [await legacyFile(id, "a.bin", a), await legacyFile(id, "b.csv", b)];
    // An earlier run was killed after it wrote b's object, before it pointed b's row at it.
    await fileStore().put(`attachments/${id}/${ids[1]}`, stream("id,y\n1,0\n"));
    expect(await moveAttachmentsToStore()).toBeGreaterThanOrEqual(2);
    expect(await moveAttachmentsToStore()).toBe(0);
    const rows = await db.attachment.findMany({ where: { competitionId: id }, orderBy: { filename: "asc" }, select: { id: true, storageKey: true, data: true } });
    expect(rows.map((r) => [r.storageKey, r.data])).toEqual(ids.map((fileId) => [`attachments/${id}/${fileId}`, null]));
    expect(sha256(new Uint8Array(await new Response(await fileStore().get(rows[0].storageKey!)).arrayBuffer()))).toBe(sha256(a));
    expect(await text(await fileStore().get(rows[1].storageKey!))).toBe(b.toString());
  });
});

describe("the local store's directory", () => {
  beforeAll(() => (process.env = { ...saved }));

  it("is this database's: another instance's directory (another container's disk) refuses to start", async () => {
    await claimLocalStore();
    const mark = readFileSync(path.join(path.resolve(process.env.QUILTBOARD_FILES_DIR!), ".quiltboard-store"), "utf8").trim();
    const [row] = await db.$queryRaw<{ mark: string }[]>`SELECT mark::text FROM file_store`;
    expect(row.mark).toBe(mark);
    await claimLocalStore(); // again: the same directory passes

    const other = mkdtempSync(path.join(tmpdir(), "quiltboard-other-"));
    process.env.QUILTBOARD_FILES_DIR = other;
    await expect(claimLocalStore()).rejects.toThrow(`QUILTBOARD_FILES=local: ${other} is not the directory this database's files are kept in`);
    writeFileSync(path.join(other, ".quiltboard-store"), `${mark}\n`); // the same directory, mounted elsewhere
    await claimLocalStore();
    process.env = { ...saved, ...stores.s3.env };
    await claimLocalStore(); // S3 is shared by every instance: nothing to check
  });
});
