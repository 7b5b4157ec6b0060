import { CsvReader, type CsvIssue, type CsvRecord, CsvValidationError } from "./reader";

/**
 * A solution's ids as they are stored: their UTF-8 bytes joined by line breaks (an id holds none),
 * row r's from `starts[r]` to `starts[r + 1] - 1`. A million ids are two typed arrays rather than a
 * million strings, which every full collection of the garbage collector would have to trace while
 * the solution stays in memory for the competition's submissions (lib/csv/submission.ts IdIndex).
 */
export class SolutionIds {
  readonly length: number;
  readonly starts: Int32Array;

  /** @param bytes the ids' UTF-8 bytes joined by "\n" (no line break after the last) */
  constructor(readonly bytes: Uint8Array) {
    let count = bytes.length === 0 ? 0 : 1;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === LF) count++;
    this.length = count;
    this.starts = new Int32Array(count + 1);
    let r = 1;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === LF) this.starts[r++] = i + 1;
    this.starts[count] = bytes.length + 1;
  }

  static fromStrings(ids: string[]): SolutionIds {
    return new SolutionIds(new Uint8Array(Buffer.from(ids.join("\n"), "utf8")));
  }

  /** Row r's id. */
  name(row: number): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString("utf8", this.starts[row], this.starts[row + 1] - 1);
  }

  /** Every id, in row order (tests). */
  toArray(): string[] {
    return Array.from({ length: this.length }, (_, r) => this.name(r));
  }
}

const LF = 10;

/**
 * The organizer's solution file (docs/api.md): header `id,label,split` plus optional `order`, `group`
 * and `state` columns, in any order. Stored compactly as columns, never one database row per line.
 */
export type Solution = {
  ids: SolutionIds;
  /** class codes into `classes` (class metrics) or numbers */
  labels: Int32Array | Float64Array;
  classes: string[] | null;
  /** 0 = public, 1 = holdout */
  split: Uint8Array;
  order: Float64Array | null;
  groups: { codes: Int32Array; names: string[] } | null;
  states: { codes: Int32Array; names: string[] } | null;
};

/** The columns that describe the holdout's correlation (what calibration reads). */
export type SolutionColumns = Pick<Solution, "split" | "order" | "groups" | "states">;

/** How labels are read: class strings, 0/1 for probability metrics, or numbers (a Metric's `input`). */
export type LabelKind = "class" | "probability" | "number";

const REQUIRED = ["id", "label", "split"] as const;
const OPTIONAL = ["order", "group", "state"] as const;
const MAX_ISSUES = 20;
/** The most rows a solution may have: twice the largest holdout the platform is built for (10⁶). */
export const MAX_SOLUTION_ROWS = 2_000_000;

/** Interns strings as dense integer codes. */
class Codes {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  code(name: string): number {
    let c = this.index.get(name);
    if (c === undefined) {
      c = this.names.length;
      this.names.push(name);
      this.index.set(name, c);
    }
    return c;
  }
}

/**
 * A streaming parser and validator for solution files. Feed it text with `push`, then `end` returns
 * the columns or throws a CsvValidationError listing up to 20 problems, each with its line: missing
 * or unknown columns, empty or duplicate ids, a split that is not public/holdout, a label that is
 * not a number (number metrics) or not 0/1 (probability metrics), a non-numeric order, a field
 * holding NUL, an empty split, more than MAX_SOLUTION_ROWS rows.
 */
export function createSolutionParser(labelKind: LabelKind) {
  const issues: CsvIssue[] = [];
  let columns: Record<string, number> | null = null;
  let names: string[] = [];
  let width = 0;
  const ids: string[] = [];
  const seen = new Map<string, number>();
  const labels: number[] = [];
  const classes = new Codes();
  const split: number[] = [];
  const order: number[] = [];
  const groups = new Codes();
  const groupCodes: number[] = [];
  const states = new Codes();
  const stateCodes: number[] = [];

  const problem = (line: number, message: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ line, message });
  };

  function header(fields: string[], line: number) {
    names = fields.map((f) => f.trim().toLowerCase());
    const missing = REQUIRED.filter((c) => !names.includes(c));
    if (missing.length) problem(line, `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: the header must include id,label,split`);
    const unknown = names.filter((n) => !(REQUIRED as readonly string[]).includes(n) && !(OPTIONAL as readonly string[]).includes(n));
    if (unknown.length) problem(line, `unknown column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}: allowed are id, label, split, order, group, state`);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) problem(line, `column ${dup} appears twice`);
    columns = Object.fromEntries(names.map((n, i) => [n, i]));
    width = names.length;
    if (issues.length) throw new CsvValidationError(issues);
  }

  function row(fields: string[], line: number) {
    const c = columns!;
    if (ids.length === MAX_SOLUTION_ROWS)
      throw new CsvValidationError([{ line, message: `more than ${MAX_SOLUTION_ROWS.toLocaleString("en")} rows: a solution may have at most that many` }]);
    if (fields.length !== width) return problem(line, `expected ${width} fields, found ${fields.length}`);
    // Labels, group and state names are stored as text, which holds no NUL (a UTF-16 or binary file has them).
    const nul = fields.findIndex((f) => f.includes("\u0000"));
    if (nul >= 0) return problem(line, `the ${names[nul]} holds the NUL character (U+0000), which no text may hold: is the file saved as UTF-8 text?`);
    const id = fields[c.id];
    if (id === "") return problem(line, "empty id");
    if (/[\r\n]/.test(id)) return problem(line, "an id cannot contain a line break");
    const first = seen.get(id);
    if (first !== undefined) return problem(line, `duplicate id "${id}" (first on line ${first})`);
    seen.set(id, line);

    const s = fields[c.split].trim().toLowerCase();
    if (s !== "public" && s !== "holdout") return problem(line, `split must be public or holdout, found "${fields[c.split]}"`);

    const raw = fields[c.label].trim();
    let label: number;
    if (labelKind === "class") {
      if (raw === "") return problem(line, "empty label");
      label = classes.code(raw);
    } else {
      label = raw === "" ? NaN : Number(raw);
      if (!Number.isFinite(label)) return problem(line, `label must be a number, found "${fields[c.label]}"`);
      if (labelKind === "probability" && label !== 0 && label !== 1) return problem(line, `label must be 0 or 1 for this metric, found "${fields[c.label]}"`);
    }

    if (c.order !== undefined) {
      const o = Number(fields[c.order]);
      if (fields[c.order].trim() === "" || !Number.isFinite(o)) return problem(line, `order must be a number, found "${fields[c.order]}"`);
      order.push(o);
    }
    if (c.group !== undefined) groupCodes.push(groups.code(fields[c.group]));
    if (c.state !== undefined) {
      if (fields[c.state] === "") return problem(line, "empty state");
      stateCodes.push(states.code(fields[c.state]));
    }
    ids.push(id);
    labels.push(label);
    split.push(s === "holdout" ? 1 : 0);
  }

  const reader = new CsvReader((record: CsvRecord) => {
    if (!columns) header(record.fields(), record.line);
    else row(record.fields(), record.line);
    if (issues.length >= MAX_ISSUES) throw new CsvValidationError(issues);
  });

  return {
    push(chunk: Uint8Array) {
      reader.push(chunk);
    },
    /** The number of data rows read so far (for progress). */
    get rows() {
      return ids.length;
    },
    end(): Solution {
      reader.end();
      if (!columns) throw new CsvValidationError([{ line: 0, message: "the file is empty: expected a header id,label,split and one row per test example" }]);
      if (issues.length === 0) {
        const holdout = split.reduce((a, b) => a + b, 0);
        if (ids.length === 0) problem(0, "the file has a header but no rows");
        else if (holdout === 0) problem(0, "the holdout split is empty: mark some rows split=holdout");
        else if (holdout === ids.length) problem(0, "the public split is empty: mark some rows split=public");
      }
      if (issues.length) throw new CsvValidationError(issues);
      return {
        ids: SolutionIds.fromStrings(ids),
        labels: labelKind === "class" ? Int32Array.from(labels) : Float64Array.from(labels),
        classes: labelKind === "class" ? classes.names : null,
        split: Uint8Array.from(split),
        order: columns["order"] !== undefined ? Float64Array.from(order) : null,
        groups: columns["group"] !== undefined ? { codes: Int32Array.from(groupCodes), names: groups.names } : null,
        states: columns["state"] !== undefined ? { codes: Int32Array.from(stateCodes), names: states.names } : null,
      };
    },
  };
}

/** Parses a whole solution file held in memory (tests, the seed). */
export function parseSolution(text: string, labelKind: LabelKind): Solution {
  const parser = createSolutionParser(labelKind);
  parser.push(new TextEncoder().encode(text));
  return parser.end();
}

/**
 * The groups with rows in both splits (docs/mechanism.md §2.6): public scores are released exactly,
 * so a public row reveals what its correlated holdout neighbours hold, and the tolerance check cannot
 * see it. `examples` are up to `limit` such groups in name order. Null without a group column.
 */
export function groupsAcrossSplits(solution: Solution, limit = 5): { count: number; examples: string[] } | null {
  if (!solution.groups) return null;
  const { codes, names } = solution.groups;
  const seen = new Uint8Array(names.length); // bit 1: a public row, bit 2: a holdout row
  for (let r = 0; r < codes.length; r++) seen[codes[r]] |= solution.split[r] === 1 ? 2 : 1;
  const crossing = names.filter((_, g) => seen[g] === 3);
  return { count: crossing.length, examples: crossing.sort().slice(0, limit) };
}

/**
 * Holdout rows in chain order, split into independent chains: one per group when there is a group
 * column, ordered by `order` when there is one, else by file order (docs/mechanism.md §3).
 */
export function holdoutChains(solution: SolutionColumns): number[][] {
  const rows: number[] = [];
  for (let r = 0; r < solution.split.length; r++) if (solution.split[r] === 1) rows.push(r);
  if (solution.order) {
    const o = solution.order;
    rows.sort((a, b) => o[a] - o[b] || a - b);
  }
  if (!solution.groups) return [rows];
  const byGroup = new Map<number, number[]>();
  for (const r of rows) {
    const g = solution.groups.codes[r];
    const list = byGroup.get(g);
    if (list) list.push(r);
    else byGroup.set(g, [r]);
  }
  return [...byGroup.values()];
}
