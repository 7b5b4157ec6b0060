import { describe, expect, it } from "vitest";
import { CsvProfiler, filePreview, PROFILE_LIMITS, profileCsv, profiling, type ColumnSummary, type ColumnType, type FilePreview } from "@/lib/csv/profile";

/** The preview of `bytes`, pushed in chunks of `size` bytes. */
function profile(bytes: Uint8Array | string, size = 1 << 16, limits = PROFILE_LIMITS): FilePreview {
  const all = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const profiler = new CsvProfiler(limits);
  for (let i = 0; i < all.length; i += size) profiler.push(all.subarray(i, i + size));
  return profiler.finish();
}

/** A column's expected summary: its counts [missing, distinct], its range [min, max] (numbers) or [earliest, latest] (dates), and whether the distinct count is exact. */
const column = (
  name: string,
  type: ColumnType,
  [missing, distinct]: [number, number],
  [min, max]: [number | string | null, number | string | null] = [null, null],
  distinctExact = true,
): ColumnSummary => ({
  name,
  type,
  missing,
  distinct,
  distinctExact,
  min: typeof min === "number" ? min : null,
  max: typeof max === "number" ? max : null,
  earliest: typeof min === "string" ? min : null,
  latest: typeof max === "string" ? max : null,
});

describe("CsvProfiler", () => {
  it("reads quoted fields, CRLF, a byte-order mark and missing markers, the same in chunks of any size", () => {
    const text =
      '\uFEFFid,name,score,ok,when\r\n1,"Smith, ""Jo""",0.5,true,2024-01-31\r\n2,"two\r\nlines",NA,False,2024-02-29T10:00:00Z\r\n\r\n3,,1e3,TRUE,\r\n-4,plain,-2.25,,2023-12-01\r\n';
    const expected: FilePreview = {
      kind: "csv",
      header: ["id", "name", "score", "ok", "when"],
      columns: 5,
      rows: 4,
      ragged: 0,
      preview: [
        ["1", 'Smith, "Jo"', "0.5", "true", "2024-01-31"],
        ["2", "two\r\nlines", "NA", "False", "2024-02-29T10:00:00Z"],
        ["3", "", "1e3", "TRUE", ""],
        ["-4", "plain", "-2.25", "", "2023-12-01"],
      ],
      summaries: [
        column("id", "integer", [0, 4], [-4, 3]),
        column("name", "text", [1, 3]),
        column("score", "number", [1, 3], [-2.25, 1000]),
        column("ok", "boolean", [1, 3]),
        column("when", "date", [1, 3], ["2023-12-01", "2024-02-29T10:00:00Z"]),
      ],
    };
    for (const size of [1, 2, 3, 7, 64, 1 << 16]) expect(profile(text, size)).toEqual(expected);
  });

  it("counts ragged rows: a short row's absent fields are missing, a long row's extra fields are not summarized", () => {
    expect(profile("a,b,c\n1,2,3\n4\n5,6,7,8\n")).toEqual({
      kind: "csv",
      header: ["a", "b", "c"],
      columns: 3,
      rows: 3,
      ragged: 2,
      preview: [["1", "2", "3"], ["4"], ["5", "6", "7"]],
      summaries: [column("a", "integer", [0, 3], [1, 5]), column("b", "integer", [1, 2], [2, 6]), column("c", "integer", [1, 2], [3, 7])],
    });
  });

  it("keeps the first rows of a longer file, counts distinct values exactly up to the cap and then says more than it", () => {
    const limits = { ...PROFILE_LIMITS, previewRows: 3, distinct: 100 };
    const rows = Array.from({ length: 10_000 }, (_, i) => `${i},${i % 7},${i % 2 ? "" : "x".repeat(70 + (i % 50))}`);
    const result = profile(`n,mod,long\n${rows.join("\n")}`, 4096, limits);
    expect(result).toEqual({
      kind: "csv",
      header: ["n", "mod", "long"],
      columns: 3,
      rows: 10_000,
      ragged: 0,
      preview: [
        ["0", "0", "x".repeat(70)],
        ["1", "1", ""],
        ["2", "2", "x".repeat(72)],
      ],
      // "long" holds 25 distinct values of 70 to 118 characters (even i: 70 + i mod 50), counted by their SHA-256.
      summaries: [column("n", "integer", [0, 100], [0, 9999], false), column("mod", "integer", [0, 7], [0, 6]), column("long", "text", [5000, 25])],
    });
  });

  it("cuts long cells and shows at most the configured columns of a wide file", () => {
    const limits = { ...PROFILE_LIMITS, columns: 2, cellChars: 5 };
    expect(profile("alpha,beta,gamma\nabcdefgh,1,2\n", 1 << 16, limits)).toEqual({
      kind: "csv",
      header: ["alpha", "beta"],
      columns: 3,
      rows: 1,
      ragged: 0,
      preview: [["abcd…", "1"]],
      summaries: [column("alpha", "text", [0, 1]), column("beta", "integer", [0, 1], [1, 1])],
    });
  });

  it("types a column by all its values: one text value makes a number column text, only missing values make it empty", () => {
    const result = profile("x,y,z\n1,1.5,\n2,abc,NaN\n3,2,null\n");
    expect(result.kind === "csv" && result.summaries).toEqual([column("x", "integer", [0, 3], [1, 3]), column("y", "text", [0, 3]), column("z", "empty", [3, 0])]);
  });

  it("reads every number to the same double as Number(), and what is not a number as text", () => {
    // A fixed list and 2,000 decimals of up to 17 digits from a seeded linear congruential generator.
    let seed = 12345;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const random = Array.from({ length: 2_000 }, () => `${next() % 2 ? "-" : ""}${next() % 1_000_000_000}.${String(next() % 100_000_000).padStart(1 + (next() % 8), "0")}`);
    for (const v of [
      "0.1",
      "-0.3",
      "+7",
      ".5",
      "5.",
      "0.000001",
      "123456789012345",
      "1234567890123456789",
      "1e-7",
      "-2.5E3",
      "9007199254740993",
      "0.30000000000000004",
      ...random,
    ]) {
      const result = profile(`x\n${v}\n`);
      expect(result.kind === "csv" && [result.summaries[0].min, result.summaries[0].type], v).toEqual([Number(v), /[.eE]/.test(v) ? "number" : "integer"]);
    }
    for (const v of ["1e", "e5", "1.2.3", "--1", "1,5", " 1", "0x10", "Infinity", "."]) {
      const result = profile(`x\n"${v}"\n`);
      expect(result.kind === "csv" && result.summaries[0].type, v).toBe("text");
    }
  });

  it("gives a header-only file its columns and no rows, and an empty file no preview", () => {
    expect(profile("a,b\n")).toEqual({
      kind: "csv",
      header: ["a", "b"],
      columns: 2,
      rows: 0,
      ragged: 0,
      preview: [],
      summaries: [column("a", "empty", [0, 0]), column("b", "empty", [0, 0])],
    });
    expect(profile("")).toEqual({ kind: "none", reason: "the file is empty" });
    expect(profile("\n\n")).toEqual({ kind: "none", reason: "the file is empty" });
  });

  it("gives a binary file, text that is not UTF-8, UTF-16, an unclosed quote or a record too long no preview, with the reason", () => {
    const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52);
    expect(profile(png)).toEqual({ kind: "none", reason: "the file holds NUL bytes: it is binary, not CSV text" });
    expect(profile(Uint8Array.of(...new TextEncoder().encode("a,b\n1,2\n"), 0xff, 0xfe, 0x41, 10))).toEqual({
      kind: "none",
      reason: "line 3: the text is not valid UTF-8 (save the file as UTF-8)",
    });
    expect(profile(Buffer.from("\uFEFFa,b\n1,2\n", "utf16le"))).toMatchObject({ kind: "none", reason: expect.stringMatching(/^this file is UTF-16/) });
    expect(profile('a,b\n1,"open\n')).toEqual({ kind: "none", reason: "line 2: a quoted field is never closed" });
    expect(profile(`a\n${"x".repeat(300)}\n`, 1 << 16, { ...PROFILE_LIMITS, maxRecordBytes: 256 })).toEqual({
      kind: "none",
      reason: "line 2: the line is longer than 256 bytes: is this the right file?",
    });
  });

  it("consumes a stream of chunks (profileCsv), as an upload or a resumed upload's assembled file delivers them", async () => {
    async function* chunks() {
      yield new TextEncoder().encode("id,v\n1,");
      yield new TextEncoder().encode("2\n3,4\n");
    }
    expect(await profileCsv(chunks())).toEqual({
      kind: "csv",
      header: ["id", "v"],
      columns: 2,
      rows: 2,
      ragged: 0,
      preview: [
        ["1", "2"],
        ["3", "4"],
      ],
      summaries: [column("id", "integer", [0, 2], [1, 3]), column("v", "integer", [0, 2], [2, 4])],
    });
  });
});

describe("filePreview", () => {
  it("previews files named *.csv or sent as text/csv, and no other", async () => {
    const read = async (filename: string, contentType: string) => {
      const profiler = new CsvProfiler();
      const passed = await new Response(new Blob(["a\n1\n"]).stream().pipeThrough(profiling(profiler))).text();
      return { passed, preview: filePreview(profiler, { filename, contentType }) };
    };
    const csv = { kind: "csv", header: ["a"], columns: 1, rows: 1, ragged: 0, preview: [["1"]], summaries: [column("a", "integer", [0, 1], [1, 1])] };
    expect(await read("train.CSV", "application/vnd.ms-excel")).toEqual({ passed: "a\n1\n", preview: csv });
    expect(await read("data", "text/csv; charset=utf-8")).toEqual({ passed: "a\n1\n", preview: csv });
    expect(await read("notes.txt", "text/plain")).toEqual({ passed: "a\n1\n", preview: { kind: "none", reason: "not a CSV file" } });
  });
});
