import { describe, expect, it } from "vitest";
import { CsvReader, CsvValidationError } from "@/lib/csv/reader";
import { createSolutionParser, holdoutChains, parseSolution } from "@/lib/csv/solution";
import { PackedStrings } from "@/lib/csv/strings";
import { createSubmissionParser, submissionKey } from "@/lib/csv/submission";

/** The records of `text`, fed to the reader in chunks of `chunk` bytes. */
function readAll(text: string, chunk = 3) {
  const out: { fields: string[]; line: number }[] = [];
  const reader = new CsvReader((r) => out.push({ fields: r.fields(), line: r.line }));
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += chunk) reader.push(bytes.subarray(i, i + chunk));
  reader.end();
  return out;
}

describe("CsvReader (RFC 4180)", () => {
  it("reads quoted fields with commas, quotes and line breaks across chunk boundaries", () => {
    const text = '\uFEFFid,name\r\n1,"a, ""quoted""\nname"\r\n\r\n2,plain\n3,\n';
    for (const size of [1, 2, 3, 7, 1000]) {
      expect(readAll(text, size)).toEqual([
        { fields: ["id", "name"], line: 1 },
        { fields: ["1", 'a, "quoted"\nname'], line: 2 },
        { fields: ["2", "plain"], line: 5 },
        { fields: ["3", ""], line: 6 },
      ]);
    }
  });

  it("reads a last line without a newline", () => {
    expect(readAll("a,b\n1,2")).toEqual([
      { fields: ["a", "b"], line: 1 },
      { fields: ["1", "2"], line: 2 },
    ]);
  });

  it("names the line of an unclosed quote or text after a closing quote", () => {
    expect(() => readAll('a\n"open\n')).toThrow("line 2: a quoted field is never closed");
    expect(() => readAll('a\n"x"y\n')).toThrow("line 2: unexpected text after a closing quote");
  });
});

describe("CsvReader limits (hostile input)", () => {
  it("rejects a line longer than the limit at that line, without reading to its end", () => {
    const long = `ok,1\n${"x".repeat(20_000)}`;
    expect(() => readAll(long, 4096)).toThrow("line 2: the line is longer than 16384 bytes");
    // The error comes from the chunk that crosses the limit: the rest of the line is never needed.
    const reader = new CsvReader(() => {});
    reader.push(new TextEncoder().encode("a,b\n"));
    expect(() => {
      for (let i = 0; i < 1000; i++) reader.push(new Uint8Array(4096).fill(120));
    }).toThrow("line 2: the line is longer than 16384 bytes");
  });

  it("rejects a record of commas at its field limit", () => {
    expect(() => readAll(`a\n${",".repeat(1 << 20)}`, 65536)).toThrow("line 2: more than 16 fields");
  });

  it("names the line of bytes that are not UTF-8, even when a character is split across chunks", () => {
    expect(readAll("id\nnaïve\n", 1)).toEqual([
      { fields: ["id"], line: 1 },
      { fields: ["naïve"], line: 2 },
    ]);
    const reader = new CsvReader(() => {});
    expect(() => {
      reader.push(new TextEncoder().encode("id\nok\n"));
      reader.push(Uint8Array.of(0x61, 0xff, 0x0a));
      reader.end();
    }).toThrow("line 3: the text is not valid UTF-8");
  });
});

describe("submission parser: exact keys and values", () => {
  const parse = (ids: string[], classes: string[] | null, input: "class" | "number" | "probability", text: string) => {
    const parser = createSubmissionParser(submissionKey({ ids: PackedStrings.fromStrings(ids), classes }), input);
    parser.push(new TextEncoder().encode(text));
    return Array.from(parser.end());
  };

  it("refuses a class the solution does not have, naming the line", () => {
    expect(() => parse(["a", "b"], ["0", "1"], "class", "id,prediction\na,1\nb,abc\n")).toThrow('line 3: prediction "abc" is not one of the classes 0, 1');
    expect(() => parse(["a", "b"], ["cat", "dog"], "class", "id,prediction\na,cat\nb,Dog\n")).toThrow('line 3: prediction "Dog" is not one of the classes cat, dog');
  });

  it("lists the classes in sorted order, never in the solution's (whose first class is the first row's label)", () => {
    expect(() => parse(["a", "b"], ["spike", "none"], "class", "id,prediction\na,spike\nb,abc\n")).toThrow('prediction "abc" is not one of the classes none, spike');
    expect(() => parse(["a", "b"], ["10", "9", "1"], "class", "id,prediction\na,9\nb,abc\n")).toThrow('prediction "abc" is not one of the classes 1, 9, 10');
  });

  it("finds a class by its exact spelling, also among names that start alike, in place and the general way", () => {
    const classes = ["yes", "yesterday", "no", "n", "é", "ék"];
    const ids = ["a", "b", "c", "d", "e", "f"];
    const rows = ["yesterday", "n", "yes", "ék", "no", "é"];
    const expected = rows.map((c) => classes.indexOf(c));
    expect(parse(ids, classes, "class", ["id,prediction", ...rows.map((c, i) => `${ids[i]},${c}`)].join("\n"))).toEqual(expected);
    expect(parse(ids, classes, "class", ["prediction,id", ...rows.map((c, i) => `${c},${ids[i]}`)].join("\n"))).toEqual(expected);
    for (const wrong of ["ye", "yesterdays", "N", "nn", "e", "x"]) {
      expect(() => parse(["a"], classes, "class", `id,prediction\na,${wrong}\n`)).toThrow(`line 2: prediction "${wrong}" is not one of the classes`);
    }
  });

  it("compares numeric classes as numbers", () => {
    expect(parse(["a", "b", "c"], ["0", "1"], "class", "id,prediction\na,1.0\nb, 0 \nc,1e0\n")).toEqual([1, 0, 1]);
    expect(() => parse(["a"], ["0", "1"], "class", "id,prediction\na,2\n")).toThrow("is not one of the classes");
  });

  it("reads numbers exactly as Number() does, on the fast path and off it", () => {
    const values = ["0.1", "-0.25", "+3", "1.", ".5", "123456789012345", "0.1234567890123456789", "1e-3", " 2.5 ", "0x10", "-0", "007.50"];
    const ids = values.map((_, i) => `r${i}`);
    const got = parse(ids, null, "number", ["id,prediction", ...values.map((v, i) => `r${i},${v}`)].join("\n"));
    expect(got).toEqual(values.map((v) => Number(v.trim())));
    let seed = 1;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const many = Array.from({ length: 2000 }, () => (random() * 10 ** Math.floor(random() * 8 - 4)).toFixed(Math.floor(random() * 16)));
    const manyIds = many.map((_, i) => `m${i}`);
    expect(parse(manyIds, null, "number", ["id,prediction", ...many.map((v, i) => `m${i},${v}`)].join("\n"))).toEqual(many.map(Number));
  });

  it("lists missing ids in alphabetical order, never in the solution's order", () => {
    const ids = ["zeta", "eta", "alpha", "mu", "beta"];
    expect(() => parse(ids, null, "number", "id,prediction\nmu,1\n")).toThrow('4 test ids have no prediction, e.g. "alpha", "beta", "eta"');
    const many = Array.from({ length: 500 }, (_, i) => `id-${String(499 - i).padStart(3, "0")}`);
    expect(() => parse(many, null, "number", "id,prediction\n")).toThrow('500 test ids have no prediction, e.g. "id-000", "id-001", "id-002"');
  });

  it("reads a row in place only as the general way would: ids and classes holding a comma or a quote must be quoted, spaces are only spaces", () => {
    expect(() => parse(["a,b", "c"], null, "number", "id,prediction\na,b,0.5\nc,1\n")).toThrow("line 2: expected 2 fields, found 3");
    expect(parse(["a,b", "c"], null, "number", 'id,prediction\n"a,b",0.5\nc,1\n')).toEqual([0.5, 1]);
    expect(() => parse(['"q', "c"], null, "number", 'id,prediction\n"q,0.5\nc,1\n')).toThrow("line 2: a quoted field is never closed");
    expect(() => parse(["a"], ["x", "y"], "class", "id,prediction\na,x\u00a0\n")).toThrow('line 2: prediction "x\u00a0" is not one of the classes x, y');
    expect(() => parse(["a", "b"], ["x", "y"], "class", 'id,prediction\na,"x\n"\nb,y\n')).toThrow('line 2: prediction "x\\n" is not one of the classes x, y');
    expect(() => parse(["a", "b"], ["x,y", "z"], "class", "id,prediction\na,x,y\nb,z\n")).toThrow("line 2: expected 2 fields, found 3");
  });

  it("finds ids in any order, quoted or not", () => {
    const ids = ["a", 'say "hi"', "c"];
    expect(parse(ids, null, "number", 'id,prediction\nc,3\n"say ""hi""",2\na,1\n')).toEqual([1, 2, 3]);
  });
});

// Issue 39, Low: a rejected file (which spends nothing) parsed in 730, 1,253 and 4,964 ms sorted,
// reversed and shuffled: its rows were looked up by the solution's rows, so the file in the
// solution's own order ran fastest, and timing told that order (say, public rows first). Rows are
// looked up by their ids' positions in shortlex order now, a function of the ids alone.
describe("submission parser: the solution's row order does not show", () => {
  const n = 200_000;
  const ids = Array.from({ length: n }, (_, i) => `r${i}`);
  /** `items` shuffled by a linear congruential generator from `seed`. */
  const shuffled = <T>(items: T[], seed: number) => {
    const out = [...items];
    for (let i = out.length - 1, x = seed; i > 0; i--) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const j = x % (i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const secret = shuffled(ids, 7);
  const inOrder = submissionKey({ ids: PackedStrings.fromStrings(ids), classes: ["a", "b"] });
  const inSecret = submissionKey({ ids: PackedStrings.fromStrings(secret), classes: ["a", "b"] });

  it("keys two files of the same ids, in any order, by the same positions, and answers by each file's rows", () => {
    for (let p = 0; p < n; p += 997) {
      expect(inSecret.ids.name(p)).toBe(inOrder.ids.name(p));
      expect(secret[inSecret.ids.rowOf![p]]).toBe(inSecret.ids.name(p));
      const id = Buffer.from(ids[p]);
      expect(inSecret.ids.lookUp(id, 0, id.length)).toBe(inOrder.ids.lookUp(id, 0, id.length));
    }
    expect([inOrder.ids.name(0), inOrder.ids.name(9), inOrder.ids.name(10), inOrder.ids.name(n - 1)]).toEqual(["r0", "r9", "r10", `r${n - 1}`]);
    expect(inOrder.ids.rowOf).toBeNull(); // a file in shortlex order already: positions are rows
    // Accepted, a file's predictions come back by the solution's rows, whatever either order.
    const rows = shuffled(secret, 11);
    const parser = createSubmissionParser(inSecret, "class");
    parser.push(new TextEncoder().encode(["id,prediction", ...rows.map((id) => `${id},${Number(id.slice(1)) % 3 ? "a" : "b"}`)].join("\n")));
    const predictions = parser.end();
    expect(secret.every((id, r) => predictions[r] === (Number(id.slice(1)) % 3 ? 0 : 1))).toBe(true);
    parser.release();
  });

  it("takes as long to reject a file in the solution's order as the same file against the same ids in another order", () => {
    // The file in the secret order, with an unknown id on its last line: read to its end, then refused.
    const lines = secret.map((id) => `${id},a`);
    lines[n - 1] = "not-an-id,a";
    const file = new TextEncoder().encode(["id,prediction", ...lines].join("\n"));
    const reject = (key: typeof inOrder) => {
      const start = performance.now();
      const parser = createSubmissionParser(key, "class");
      for (let at = 0; at < file.length; at += 65_536) parser.push(file.subarray(at, at + 65_536));
      expect(() => parser.end()).toThrow("is not in the test set");
      parser.release();
      return performance.now() - start;
    };
    const times: { secret: number[]; other: number[] } = { secret: [], other: [] };
    for (let round = 0; round < 9; round++) {
      times.secret.push(reject(inSecret));
      times.other.push(reject(inOrder));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
    // Both parses do the same work (the same positions, the same table): medians of 9 alternated
    // runs agree within a factor of 1.5, where lookups by the solution's rows made the file in the
    // solution's order about ten times faster.
    const ratio = median(times.secret) / median(times.other);
    expect(ratio, `medians ${median(times.secret).toFixed(1)} and ${median(times.other).toFixed(1)} ms`).toBeGreaterThan(2 / 3);
    expect(ratio).toBeLessThan(1.5);
  });
});

describe("solution parser", () => {
  it("reads columns in any order and case", () => {
    const s = parseSolution("Split,ID,Label\npublic,a,0.5\nholdout,b,2\n", "number");
    expect(s.ids.toArray()).toEqual(["a", "b"]);
    expect(Array.from(s.labels)).toEqual([0.5, 2]);
    expect(Array.from(s.split)).toEqual([0, 1]);
  });

  it("lists the first 20 problems with their lines, then how many there are in all", () => {
    const rows = Array.from({ length: 30 }, (_, i) => `r${i},1,nowhere`);
    try {
      parseSolution(["id,label,split", ...rows].join("\n"), "number");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CsvValidationError);
      const issues = (error as CsvValidationError).issues;
      expect(issues).toHaveLength(21);
      expect(issues[0]).toEqual({ line: 2, message: 'split must be public or holdout, found "nowhere"' });
      expect(issues[19].line).toBe(21);
      expect(issues[20]).toEqual({ line: 0, message: "and 10 more problems (30 in all)" });
    }
  });

  it("rejects unknown and missing columns, wrong field counts, empty files", () => {
    expect(() => parseSolution("id,label,split,extra\n", "number")).toThrow("line 1: unknown column extra");
    expect(() => parseSolution("id,split\n", "number")).toThrow("line 1: missing column label");
    expect(() => parseSolution("id,label,split\na,1\n", "number")).toThrow("line 2: expected 3 fields, found 2");
    expect(() => parseSolution("", "number")).toThrow("the file is empty");
    expect(() => parseSolution("id,label,split\n", "number")).toThrow("the file has a header but no rows");
    expect(() => parseSolution("id,label,split,order\na,1,public,soon\n", "number")).toThrow('line 2: order must be a number, found "soon"');
  });

  it("refuses a line break in a group, and more classes or states than a competition can use, naming the line", () => {
    expect(() => parseSolution('id,label,split,group\na,1,public,"x\ny"\nb,2,holdout,g\n', "number")).toThrow("line 2: a group cannot contain a line break");
    const labels = (n: number) => ["id,label,split", ...Array.from({ length: n }, (_, i) => `r${i},class-${i},${i % 2 ? "public" : "holdout"}`)].join("\n");
    expect(parseSolution(labels(65_536), "class").classes).toHaveLength(65_536);
    expect(() => parseSolution(labels(65_537), "class")).toThrow("line 65538: more than 65,536 distinct labels, or 4096 KiB of them: is this the right column?");
    const states = ["id,label,split,state", ...Array.from({ length: 1025 }, (_, i) => `r${i},1,${i % 2 ? "public" : "holdout"},s${i}`)].join("\n");
    expect(() => parseSolution(states, "number")).toThrow("line 1026: more than 1,024 distinct states, or 64 KiB of them: is this the right column?");
  });

  it("orders holdout chains by the order column within each group", () => {
    const s = parseSolution("id,label,split,order,group\na,x,holdout,3,u\nb,x,holdout,1,u\nc,x,public,2,u\nd,x,holdout,5,v\ne,x,holdout,2,u\n", "class");
    expect(holdoutChains(s).map((chain) => chain.map((r) => s.ids.get(r)))).toEqual([["b", "e", "a"], ["d"]]);
  });
});

describe("what a file that is not the expected CSV is told (first bytes and header)", () => {
  const key = submissionKey({ ids: PackedStrings.fromStrings(["a", "b", "c"]), classes: null });
  /** The submission parser's rejection of `bytes`, fed in chunks of `chunk` bytes. */
  const rejection = (bytes: Uint8Array, chunk = 1 << 16): CsvValidationError => {
    const parser = createSubmissionParser(key, "probability");
    try {
      for (let i = 0; i < bytes.length; i += chunk) parser.push(bytes.subarray(i, i + chunk));
      parser.end();
    } catch (error) {
      expect(error).toBeInstanceOf(CsvValidationError);
      return error as CsvValidationError;
    } finally {
      parser.release();
    }
    return expect.unreachable();
  };
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const utf16 = (text: string, order: "le" | "be", bom: boolean) => {
    const le = Buffer.from((bom ? "\uFEFF" : "") + text, "utf16le");
    return order === "le" ? le : le.swap16();
  };
  const UTF16 = 'this file is UTF-16; save it as UTF-8 (Excel: Save As "CSV UTF-8 (Comma delimited)"; pandas writes UTF-8 unless given another encoding)';
  const text = "id,prediction\na,0.1\nb,0.2\nc,0.3\n";

  it("says a UTF-16 file is UTF-16, in either byte order, with or without a byte-order mark, however it arrives", () => {
    for (const order of ["le", "be"] as const) {
      for (const bom of [true, false]) {
        for (const chunk of [1, 3, 1 << 16]) expect(rejection(utf16(text, order, bom), chunk).issues).toEqual([{ line: 0, message: UTF16 }]);
      }
    }
    // A solution file too (Excel's "Unicode Text").
    const solution = createSolutionParser("number");
    expect(() => {
      solution.push(utf16("id,label,split\na,1,public\n", "le", true));
      solution.end();
    }).toThrow(UTF16);
    // UTF-8 text is never taken for UTF-16: a BOM, accents, a tiny file.
    const parser = createSubmissionParser(key, "probability");
    parser.push(utf8("\uFEFFid,prediction\na,0.1\nb,0.2\nc,0.3\n"));
    expect(Array.from(parser.end())).toEqual([0.1, 0.2, 0.3]);
    parser.release();
    expect(rejection(utf8("é")).issues[0].message).toBe("missing columns id, prediction: the header must be id,prediction");
  });

  it("names another separator: semicolons (Excel where the decimal separator is a comma), tabs", () => {
    expect(rejection(utf8("id;prediction\na;0,1\n")).issues).toEqual([
      {
        line: 1,
        message:
          'the header "id;prediction" is separated by semicolons, not commas: save the file with commas between the columns (pandas: to_csv without sep=; Excel: "CSV UTF-8 (Comma delimited)")',
      },
    ]);
    expect(rejection(utf8("id\tprediction\na\t0.1\n")).issues[0].message).toMatch(/^the header "id\\tprediction" is separated by tabs, not commas: /);
    expect(() => parseSolution("id;label;split\na;1;public\n", "number")).toThrow('line 1: the header "id;label;split" is separated by semicolons, not commas');
  });

  it("says a first column without a name is a pandas index, and how to leave it out", () => {
    for (const [header, shown] of [
      [",id,prediction", '""'],
      ["Unnamed: 0,id,prediction", '"Unnamed: 0"'],
      ['"",id,prediction', '""'],
    ]) {
      expect(rejection(utf8(`${header}\n0,a,0.1\n`)).issues).toEqual([
        { line: 1, message: `the first column has no name (${shown}): it looks like a pandas index; write the file with to_csv(path, index=False)` },
      ]);
    }
    expect(() => parseSolution(",id,label,split\n0,a,1,public\n", "number")).toThrow(
      'line 1: the first column has no name (""): it looks like a pandas index; write the file with to_csv(path, index=False)',
    );
    // A header that is only wrong keeps its own message.
    expect(rejection(utf8("id,score\n")).issues[0].message).toBe("missing column prediction: the header must be id,prediction");
  });

  it("reads a file with many bad rows to its end: the first 20 with their lines, then the total", () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `x${i},0.5`);
    const { issues, message } = rejection(utf8(["id,prediction", ...rows].join("\n")), 4096);
    expect(issues).toHaveLength(21);
    expect(issues.slice(0, 2)).toEqual([
      { line: 2, message: 'id "x0" is not in the test set' },
      { line: 3, message: 'id "x1" is not in the test set' },
    ]);
    expect(issues[19]).toEqual({ line: 21, message: 'id "x19" is not in the test set' });
    expect(issues[20]).toEqual({ line: 0, message: "and 4,980 more problems (5,000 in all)" });
    expect(message.endsWith("; and 4,980 more problems (5,000 in all)")).toBe(true);
    // Exactly 20: no count line.
    expect(rejection(utf8(["id,prediction", ...rows.slice(0, 20)].join("\n"))).issues).toHaveLength(20);
  });
});
