import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvReader, CsvValidationError } from "@/lib/csv/reader";
import { createSolutionParser } from "@/lib/csv/solution";
import { PackedStrings } from "@/lib/csv/strings";
import { createSubmissionParser, submissionKey } from "@/lib/csv/submission";

// Property-based fuzzing of the CSV layer (fast-check, seeded so a failure replays): any text is
// either read or rejected with a CsvValidationError naming a line, however it is chunked.

const field = fc.oneof(fc.string(), fc.constantFrom("a,b", '"q"', "x\r\ny", "\uFEFF", "é̃", "🙂", "=1+1", "", " "));
const encode = (f: string) => (/[",\r\n]/.test(f) || f.startsWith("\uFEFF") ? `"${f.replaceAll('"', '""')}"` : f);

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The records of `text`, its UTF-8 bytes cut at `cuts` (byte offsets, so characters get split too). */
function readChunked(text: string, cuts: number[]) {
  const out: { fields: string[]; line: number }[] = [];
  const reader = new CsvReader((r) => out.push({ fields: r.fields(), line: r.line }));
  const bytes = utf8(text);
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    reader.push(bytes.subarray(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  reader.push(bytes.subarray(from));
  reader.end();
  return out;
}

describe("CSV reader under fuzzing", () => {
  it("reads back any table written with RFC 4180 quoting, however the text is chunked", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom("\n", "\r\n"),
        fc.array(fc.nat(), { maxLength: 5 }),
        (rows, eol, cuts) => {
          const text = rows.map((r) => r.map(encode).join(",")).join(eol) + eol;
          const expected = rows.filter((r) => !(r.length === 1 && r[0] === ""));
          const got = readChunked(
            "x" + eol + text,
            cuts.map((c) => c % (utf8(text).length + 3)),
          )
            .slice(1)
            .map((r) => r.fields);
          expect(got).toEqual(expected);
        },
      ),
      { seed: 20261121, numRuns: 400 },
    );
  });

  it("never throws anything but a line-numbered CsvValidationError on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.array(fc.nat(), { maxLength: 4 }), (text, cuts) => {
        for (const kind of ["class", "probability", "number"] as const) {
          const parser = createSolutionParser(kind);
          try {
            const bytes = utf8(text);
            parser.push(bytes.subarray(0, cuts[0] ?? bytes.length));
            parser.push(bytes.subarray(cuts[0] ?? bytes.length));
            parser.end();
          } catch (error) {
            expect(error).toBeInstanceOf(CsvValidationError);
            expect((error as CsvValidationError).issues.length).toBeGreaterThan(0);
          }
        }
        const submission = createSubmissionParser(submissionKey({ ids: PackedStrings.fromStrings(["a", "b,c"]), classes: ["x"] }), "class");
        try {
          submission.push(utf8(text));
          submission.end();
        } catch (error) {
          expect(error).toBeInstanceOf(CsvValidationError);
        }
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it("never throws anything but a line-numbered CsvValidationError on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), (bytes, cut) => {
        const submission = createSubmissionParser(submissionKey({ ids: PackedStrings.fromStrings(["a", "b"]), classes: null }), "number");
        try {
          submission.push(bytes.subarray(0, cut % (bytes.length + 1)));
          submission.push(bytes.subarray(cut % (bytes.length + 1)));
          submission.end();
        } catch (error) {
          expect(error).toBeInstanceOf(CsvValidationError);
        }
      }),
      { seed: 11, numRuns: 500 },
    );
  });

  // The submission parser reads the common row in place (its lane) only under the header
  // id,prediction; under prediction,id every row goes the general way. So the same rows with their
  // columns swapped must give the same predictions, or the same problems on the same lines.
  it("reads rows in place exactly as the general way does: the same predictions or the same problems", () => {
    const ids = ["r0", "r1", "r2", "r10", "a b", "é"];
    const keys = [
      { key: submissionKey({ ids: PackedStrings.fromStrings(ids), classes: ["a", "bb", "c d", "x,y"] }), input: "class" as const },
      { key: submissionKey({ ids: PackedStrings.fromStrings(ids), classes: ["a", "bb", "c d"] }), input: "class" as const },
      { key: submissionKey({ ids: PackedStrings.fromStrings(ids), classes: ["0", "1", "2.5"] }), input: "class" as const },
      { key: submissionKey({ ids: PackedStrings.fromStrings(ids), classes: null }), input: "probability" as const },
      { key: submissionKey({ ids: PackedStrings.fromStrings(ids), classes: null }), input: "number" as const },
    ];
    const id = fc.oneof(fc.constantFrom(...ids), fc.constantFrom("r3", "", " r1", "r1 ", '"r1"', '"a b"', "R1", "r0\t"));
    const prediction = fc.oneof(
      fc.constantFrom("a", "bb", "c d", "x,y", '"x,y"', "0", "1", "2.5", "1.0", "0.25", "-0", "+1", ".5", "1."),
      fc.constantFrom("", " a", "a ", "A", "b", "1e-3", "0x10", "2", "-0.5", "1234567890123456", "0.1234567890123456789", '"0.5"', "\t1", "a\u00a0"),
      fc.double({ min: -2, max: 2, noNaN: true }).map(String),
    );
    const row = fc.record({ id, prediction, eol: fc.constantFrom("\n", "\r\n", "\r"), blank: fc.boolean() });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 4 }), fc.nat(keys.length - 1), (rows, cuts, k) => {
        const text = (header: string, line: (r: (typeof rows)[number]) => string) => utf8(`${header}\n${rows.map((r) => `${line(r)}${r.eol}${r.blank ? r.eol : ""}`).join("")}`);
        const outcome = (bytes: Uint8Array) => {
          const parser = createSubmissionParser(keys[k].key, keys[k].input);
          try {
            let from = 0;
            for (const cut of [...cuts].sort((a, b) => a - b).map((c) => c % (bytes.length + 1))) {
              parser.push(bytes.subarray(from, Math.max(from, cut)));
              from = Math.max(from, cut);
            }
            parser.push(bytes.subarray(from));
            return { predictions: Array.from(parser.end()) };
          } catch (error) {
            if (!(error instanceof CsvValidationError)) throw error;
            return { issues: error.issues };
          } finally {
            parser.release();
          }
        };
        const inPlace = outcome(text("id,prediction", (r) => `${r.id},${r.prediction}`));
        const general = outcome(text("prediction,id", (r) => `${r.prediction},${r.id}`));
        expect(inPlace).toEqual(general);
      }),
      { seed: 20261125, numRuns: 3000 },
    );
  });

  it("accepts ids with commas, quotes, odd unicode, a BOM and CRLF endings", () => {
    const ids = ["a,b", 'say "hi"', "naïve", "🙂", "ܐ־‏rtl", "zero​width"];
    const solution = "\uFEFFid,label,split\r\n" + ids.map((id, i) => `${encode(id)},${i % 2},${i < 3 ? "public" : "holdout"}`).join("\r\n") + "\r\n";
    const parser = createSolutionParser("number");
    parser.push(utf8(solution));
    const parsed = parser.end();
    expect(parsed.ids.toArray()).toEqual(ids);
    const sub = createSubmissionParser(submissionKey({ ids: parsed.ids, classes: null }), "number");
    sub.push(
      utf8(
        "\uFEFFid,prediction\r\n" +
          [...ids]
            .reverse()
            .map((id, i) => `${encode(id)},${i}`)
            .join("\r\n"),
      ),
    );
    expect(Array.from(sub.end())).toEqual([5, 4, 3, 2, 1, 0]);
  });
});
