import { describe, expect, it } from "vitest";
import { CsvReader, CsvValidationError } from "@/lib/csv/reader";
import { createSolutionParser, holdoutChains, parseSolution } from "@/lib/csv/solution";

function readAll(text: string, chunk = 3) {
  const reader = new CsvReader();
  const out = [];
  for (let i = 0; i < text.length; i += chunk) out.push(...reader.push(text.slice(i, i + chunk)));
  out.push(...reader.end());
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

describe("solution parser", () => {
  it("reads columns in any order and case", () => {
    const s = parseSolution("Split,ID,Label\npublic,a,0.5\nholdout,b,2\n", "number");
    expect(s.ids).toEqual(["a", "b"]);
    expect(Array.from(s.labels)).toEqual([0.5, 2]);
    expect(Array.from(s.split)).toEqual([0, 1]);
  });

  it("lists each problem with its line, at most 20", () => {
    const rows = Array.from({ length: 30 }, (_, i) => `r${i},1,nowhere`);
    try {
      parseSolution(["id,label,split", ...rows].join("\n"), "number");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CsvValidationError);
      const issues = (error as CsvValidationError).issues;
      expect(issues).toHaveLength(20);
      expect(issues[0]).toEqual({ line: 2, message: 'split must be public or holdout, found "nowhere"' });
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

  it("orders holdout chains by the order column within each group", () => {
    const s = parseSolution("id,label,split,order,group\na,x,holdout,3,u\nb,x,holdout,1,u\nc,x,public,2,u\nd,x,holdout,5,v\ne,x,holdout,2,u\n", "class");
    expect(holdoutChains(s).map((chain) => chain.map((r) => s.ids[r]))).toEqual([["b", "e", "a"], ["d"]]);
  });

  it("parses 10⁶ rows in a few seconds (prints the rate)", () => {
    const n = 1_000_000;
    const lines = new Array<string>(n + 1);
    lines[0] = "id,label,split";
    for (let i = 0; i < n; i++) lines[i + 1] = `row-${i},${i % 3 === 0 ? "cat" : "dog"},${i % 2 ? "public" : "holdout"}`;
    const text = lines.join("\n");
    const start = performance.now();
    const parser = createSolutionParser("class");
    for (let i = 0; i < text.length; i += 64 * 1024) parser.push(text.slice(i, i + 64 * 1024));
    const s = parser.end();
    const seconds = (performance.now() - start) / 1000;
    console.log(`solution parser: ${n} rows (${(text.length / 1e6).toFixed(1)} MB) in ${seconds.toFixed(2)} s`);
    expect(s.ids).toHaveLength(n);
    expect(s.classes).toEqual(["cat", "dog"]);
  });
});
