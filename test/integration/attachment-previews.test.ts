import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { addAttachment, moveAttachmentsToStore } from "@/lib/server/competitions/attachments";
import { getAttachmentPreview, readablePreviews } from "@/lib/server/competitions/previews";
import { createTeam } from "@/lib/server/teams/teams";
import { db } from "@/lib/server/platform/db";
import { newUser, publishedCompetition, rejection, stream } from "@/test/support/factories";

// A data file's preview (lib/csv/profile.ts) as the service keeps it: computed while the upload
// streams into the store, written with the row, read back for those who may download the file, and
// absent (null) for a file kept before previews existed, also once it is moved into the store.

const details =
  (name: string, contentType = "text/csv") =>
  async () => ({ name, contentType, description: null });

describe("data file previews", () => {
  it("computes a CSV file's preview during its streamed upload and gives it to the file's readers only", async () => {
    const { owner, slug } = await publishedCompetition();
    const rows = Array.from({ length: 3_000 }, (_, i) => `${i},${i % 3 ? (i / 4).toFixed(2) : ""},"city ${i % 5}, north"`);
    const csv = `\uFEFFid,price,place\r\n${rows.join("\r\n")}\r\n`;
    const file = await addAttachment(owner, slug, stream(csv, 4_099), details("train.csv"));
    const expected = {
      kind: "csv",
      header: ["id", "price", "place"],
      columns: 3,
      rows: 3_000,
      ragged: 0,
      preview: Array.from({ length: 10 }, (_, i) => [String(i), i % 3 ? (i / 4).toFixed(2) : "", `city ${i % 5}, north`]),
      summaries: [
        { name: "id", type: "integer", missing: 0, distinct: 1000, distinctExact: false, min: 0, max: 2999, earliest: null, latest: null },
        // 2,000 prices (i not a multiple of 3), all different; 1,000 missing
        { name: "price", type: "number", missing: 1000, distinct: 1000, distinctExact: false, min: 0.25, max: 749.75, earliest: null, latest: null },
        { name: "place", type: "text", missing: 0, distinct: 5, distinctExact: true, min: null, max: null, earliest: null, latest: null },
      ],
    };
    expect(await getAttachmentPreview(owner, slug, file.id)).toEqual({ ...file, preview: expected });
    expect(file.sha256).toBe(createHash("sha256").update(csv).digest("hex"));

    const outsider = await newUser("outsider");
    expect((await rejection(getAttachmentPreview(outsider, slug, file.id))).code).toBe("forbidden");
    expect((await rejection(getAttachmentPreview(null, slug, file.id))).code).toBe("unauthorized");
    expect(await readablePreviews(outsider, slug)).toBeNull();
    expect(await readablePreviews(null, slug)).toBeNull();
    await createTeam(outsider, slug, { name: `Readers ${file.id.slice(0, 6)}`, acceptRules: true });
    expect(await readablePreviews(outsider, slug)).toEqual([{ ...file, preview: expected }]);

    // A member an access rule set later turns away (here: verified addresses only; the member's is
    // not) is refused the preview, and the tab lists the files without previews (it answered 500).
    await db.competition.update({ where: { slug }, data: { access: { requireVerifiedEmail: true } } });
    expect((await rejection(getAttachmentPreview(outsider, slug, file.id))).code).toBe("email_unverified");
    expect(await readablePreviews(outsider, slug)).toBeNull();
  });

  it("keeps a reason instead of a preview for a binary file and a file not named CSV, and replaces the preview with the file", async () => {
    const { owner, slug } = await publishedCompetition();
    const binary = await addAttachment(owner, slug, new Response(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 10, 0])).body, details("data.csv"));
    const text = await addAttachment(owner, slug, stream("a,b\n1,2\n"), details("notes.txt", "text/plain"));
    expect((await getAttachmentPreview(owner, slug, binary.id)).preview).toEqual({ kind: "none", reason: "the file holds NUL bytes: it is binary, not CSV text" });
    expect((await getAttachmentPreview(owner, slug, text.id)).preview).toEqual({ kind: "none", reason: "not a CSV file" });
    const replaced = await addAttachment(owner, slug, stream("x\n7\n"), details("data.csv"));
    expect(replaced.id).toBe(binary.id);
    expect((await getAttachmentPreview(owner, slug, binary.id)).preview).toMatchObject({ kind: "csv", header: ["x"], rows: 1, preview: [["7"]] });
  });

  it("gives a file kept in the database before previews existed no preview, before and after it is moved into the store", async () => {
    const { owner, slug, id } = await publishedCompetition();
    const bytes = Buffer.from("id,x\n1,2\n");
    const [row] = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO attachments (id, competition_id, filename, content_type, size, sha256, data)
      VALUES (gen_random_uuid(), ${id}::uuid, 'old.csv', 'text/csv', ${bytes.byteLength}, ${createHash("sha256").update(bytes).digest("hex")}, ${bytes})
      RETURNING id::text`;
    expect((await getAttachmentPreview(owner, slug, row.id)).preview).toBeNull();
    expect((await readablePreviews(owner, slug))?.map((f) => [f.filename, f.preview])).toEqual([["old.csv", null]]);
    await moveAttachmentsToStore();
    expect(await getAttachmentPreview(owner, slug, row.id)).toMatchObject({ filename: "old.csv", size: bytes.byteLength, preview: null });
  });

  it("refuses an id that is not a file of the competition", async () => {
    const { owner, slug } = await publishedCompetition();
    expect((await rejection(getAttachmentPreview(owner, slug, "not-a-uuid"))).code).toBe("not_found");
    expect((await rejection(getAttachmentPreview(owner, slug, "00000000-0000-4000-8000-000000000000"))).code).toBe("not_found");
  });
});
