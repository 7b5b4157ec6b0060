import { describe, expect, it } from "vitest";
import { isMediaType, safeFilename, servedMediaType, startUploadSchema } from "@/lib/validation/files";

// What an uploaded file keeps of its name and media type (lib/validation/files.ts): a name without a
// path, cut by characters, never inside one; a media type only when HTTP can serve it back.

describe("safeFilename", () => {
  it.each([
    ["train.csv", "train.csv"],
    ["../../etc/passwd", "passwd"],
    ["C:\\data\\train.csv", "train.csv"],
    ['a"b\u0000\u001fc.csv', "abc.csv"],
    ["  données 😀.csv  ", "données 😀.csv"],
    ["..", null],
    ["dir/", null],
    ["", null],
  ])("%j → %j", (name, kept) => {
    expect(safeFilename(name)).toBe(kept);
  });

  it("cuts a long name at 120 characters, never inside a character's surrogate pair, keeping its extension", () => {
    // 200 emoji of two UTF-16 units each: the old cut at 120 units split the 60th in two and lost ".csv".
    const kept = safeFilename(`a${"😀".repeat(200)}.csv`)!;
    expect(Array.from(kept)).toHaveLength(120);
    expect(kept).toBe(`a${"😀".repeat(115)}.csv`);
    expect(() => encodeURIComponent(kept)).not.toThrow(); // it throws on half a surrogate pair
    // No extension to keep (none, or one longer than 15 characters): the first 120 characters.
    expect(safeFilename("x".repeat(130))).toBe("x".repeat(120));
    expect(safeFilename(`a.${"y".repeat(130)}`)).toBe(`a.${"y".repeat(118)}`);
  });
});

describe("media types", () => {
  it.each([
    ["text/csv", true],
    ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", true],
    ['text/csv; charset="utf-8"', true],
    ["text/csv;charset=utf-8; header=present", true],
    ["text/csv\r\nX-Evil: 1", false], // a header injected into the download
    ["text/csv; x=€", false], // not printable ASCII: undici refuses it as a header's value (the download answered 500)
    ["text/csv; x=é", false],
    ["text", false],
    ["text/csv;", false],
    ["", false],
  ])("%j is a media type HTTP can carry: %s", (value, valid) => {
    expect(isMediaType(value)).toBe(valid);
    expect(servedMediaType(value)).toBe(valid ? value : "application/octet-stream");
  });

  it("refuses a resumable upload's content type that is not one, naming the field", () => {
    const result = startUploadSchema.safeParse({ name: "b.csv", size: 10, contentType: "text/csv\r\nX-Evil: 1" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["contentType", "the content type is a media type such as text/csv or application/zip (printable ASCII)"],
    ]);
    expect(startUploadSchema.parse({ name: "b.csv", size: 10, contentType: "text/csv" }).contentType).toBe("text/csv");
  });
});
