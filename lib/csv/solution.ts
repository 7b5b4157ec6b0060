import { CsvReader, type CsvIssue, type CsvRecord, CsvValidationError } from "./reader";
import { PackedStrings, PackedStringsBuilder } from "./strings";

/**
 * The organizer's solution file (docs/api.md): header `id,label,split` plus optional `order`, `group`
 * and `state` columns, in any order. Stored compactly as columns, never one database row per line;
 * in memory as typed arrays, the ids and group names as PackedStrings (none as a string per row).
 */
export type Solution = {
  ids: PackedStrings;
  /** class codes into `classes` (class metrics) or numbers */
  labels: Int32Array | Float64Array;
  classes: string[] | null;
  /** 0 = public, 1 = holdout */
  split: Uint8Array;
  order: Float64Array | null;
  groups: { codes: Int32Array; names: PackedStrings } | null;
  states: { codes: Int32Array; names: string[] } | null;
};

/** The columns that describe the holdout's correlation: what calibration reads, on a worker thread (plain data). */
export type SolutionColumns = {
  split: Uint8Array;
  order: Float64Array | null;
  groups: { codes: Int32Array } | null;
  states: { codes: Int32Array; names: string[] } | null;
};

/** How labels are read: class strings, 0/1 for probability metrics, or numbers (a Metric's `input`). */
export type LabelKind = "class" | "probability" | "number";

const REQUIRED = ["id", "label", "split"] as const;
const OPTIONAL = ["order", "group", "state"] as const;
const MAX_ISSUES = 20;
/** The most rows a solution may have: twice the largest holdout the platform is built for (10⁶). */
export const MAX_SOLUTION_ROWS = 2_000_000;
/** The most classes (distinct labels of a class metric) and the most text they may take together. */
export const MAX_CLASSES = { count: 65_536, bytes: 4 * 1024 * 1024 };
/** The most states (distinct values of the state column: a Markov chain has at most 64) and their text. */
export const MAX_STATES = { count: 1024, bytes: 64 * 1024 };

const LF = 10;
const CR = 13;

/** Interns strings as dense integer codes, at most `limit.count` of them taking at most `limit.bytes` of text. */
class Codes {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  private bytes = 0;
  constructor(
    private readonly limit: { count: number; bytes: number },
    private readonly what: string,
  ) {}

  code(name: string, line: number): number {
    let c = this.index.get(name);
    if (c === undefined) {
      this.bytes += Buffer.byteLength(name);
      if (this.names.length === this.limit.count || this.bytes > this.limit.bytes) {
        const limit = `${this.limit.count.toLocaleString("en")} distinct ${this.what}s, or ${this.limit.bytes / 1024} KiB of them`;
        throw new CsvValidationError([{ line, message: `more than ${limit}: is this the right column?` }]);
      }
      c = this.names.length;
      this.names.push(name);
      this.index.set(name, c);
    }
    return c;
  }
}

/** Numbers pushed one at a time into a typed array that doubles as it fills; `values` is a view of them. */
class Column<T extends Int32Array | Float64Array | Uint8Array> {
  private array: T;
  private size = 0;
  constructor(private readonly make: (length: number) => T) {
    this.array = make(1024);
  }
  push(value: number): void {
    if (this.size === this.array.length) {
      const bigger = this.make(2 * this.size);
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.size++] = value;
  }
  get length(): number {
    return this.size;
  }
  values(): T {
    return this.array.subarray(0, this.size) as T;
  }
}

const int32 = (n: number) => new Int32Array(n);
const float64 = (n: number) => new Float64Array(n);

/** Field `f` of `record` as bytes `buf[start, end)`: in place, or its unescaped text for a quoted field holding "" pairs. */
function fieldBytes(record: CsvRecord, f: number): { buf: Uint8Array; start: number; end: number } {
  if (!record.escaped[f]) return { buf: record.bytes, start: record.starts[f], end: record.ends[f] };
  const buf = Buffer.from(record.text(f));
  return { buf, start: 0, end: buf.length };
}

/** The first field of `record` holding a NUL byte, or -1. */
function fieldWithNul(record: CsvRecord): number {
  const bytes = record.bytes;
  for (let f = 0; f < record.count; f++) for (let i = record.starts[f]; i < record.ends[f]; i++) if (bytes[i] === 0) return f;
  return -1;
}

function holdsLineBreak(field: { buf: Uint8Array; start: number; end: number }): boolean {
  for (let i = field.start; i < field.end; i++) if (field.buf[i] === LF || field.buf[i] === CR) return true;
  return false;
}

/**
 * A streaming parser and validator for solution files. Feed it text with `push`, then `end` returns
 * the columns or throws a CsvValidationError listing up to 20 problems, each with its line: missing
 * or unknown columns, empty or duplicate ids, a line break in an id or a group, a field holding NUL,
 * a split that is not public/holdout, a label that is not a number (number metrics) or not 0/1
 * (probability metrics), more classes or states than MAX_CLASSES or MAX_STATES, a non-numeric order,
 * an empty split, more than MAX_SOLUTION_ROWS rows. Ids and group names are read as bytes into
 * PackedStrings and every other column into typed arrays: what it holds is about the file's size
 * (lib/csv/submission.ts reads submissions the same way).
 */
export function createSolutionParser(labelKind: LabelKind) {
  const issues: CsvIssue[] = [];
  let columns: Record<string, number> | null = null;
  let names: string[] = [];
  let width = 0;
  const ids = new PackedStringsBuilder();
  const idLines = new Column(int32); // the line of each id, for a duplicate's message
  const labels = labelKind === "class" ? new Column(int32) : new Column(float64);
  const classes = new Codes(MAX_CLASSES, "label");
  const split = new Column((n) => new Uint8Array(n));
  let holdout = 0;
  const order = new Column(float64);
  const groups = new PackedStringsBuilder();
  const groupCodes = new Column(int32);
  const states = new Codes(MAX_STATES, "state");
  const stateCodes = new Column(int32);

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

  function row(record: CsvRecord) {
    const c = columns!;
    const line = record.line;
    if (split.length === MAX_SOLUTION_ROWS)
      throw new CsvValidationError([{ line, message: `more than ${MAX_SOLUTION_ROWS.toLocaleString("en")} rows: a solution may have at most that many` }]);
    if (record.count !== width) return problem(line, `expected ${width} fields, found ${record.count}`);
    // Labels, group and state names are stored as text, which holds no NUL (a UTF-16 or binary file has them).
    const nul = fieldWithNul(record);
    if (nul >= 0) return problem(line, `the ${names[nul]} holds the NUL character (U+0000), which no text may hold: is the file saved as UTF-8 text?`);
    const id = fieldBytes(record, c.id);
    if (id.start === id.end) return problem(line, "empty id");
    if (holdsLineBreak(id)) return problem(line, "an id cannot contain a line break");
    const first = ids.find(id.buf, id.start, id.end);
    if (first >= 0) return problem(line, `duplicate id "${record.text(c.id)}" (first on line ${idLines.values()[first]})`);
    ids.add(id.buf, id.start, id.end);
    idLines.push(line);

    const s = record.text(c.split).trim().toLowerCase();
    if (s !== "public" && s !== "holdout") return problem(line, `split must be public or holdout, found "${record.text(c.split)}"`);

    const raw = record.text(c.label).trim();
    let label: number;
    if (labelKind === "class") {
      if (raw === "") return problem(line, "empty label");
      label = classes.code(raw, line);
    } else {
      label = raw === "" ? NaN : Number(raw);
      if (!Number.isFinite(label)) return problem(line, `label must be a number, found "${record.text(c.label)}"`);
      if (labelKind === "probability" && label !== 0 && label !== 1) return problem(line, `label must be 0 or 1 for this metric, found "${record.text(c.label)}"`);
    }

    if (c.order !== undefined) {
      const text = record.text(c.order);
      const o = Number(text);
      if (text.trim() === "" || !Number.isFinite(o)) return problem(line, `order must be a number, found "${text}"`);
      order.push(o);
    }
    if (c.group !== undefined) {
      const group = fieldBytes(record, c.group);
      if (holdsLineBreak(group)) return problem(line, "a group cannot contain a line break");
      groupCodes.push(groups.intern(group.buf, group.start, group.end));
    }
    if (c.state !== undefined) {
      const state = record.text(c.state);
      if (state === "") return problem(line, "empty state");
      stateCodes.push(states.code(state, line));
    }
    labels.push(label);
    split.push(s === "holdout" ? 1 : 0);
    if (s === "holdout") holdout++;
  }

  const reader = new CsvReader((record: CsvRecord) => {
    if (!columns) header(record.fields(), record.line);
    else row(record);
    if (issues.length >= MAX_ISSUES) throw new CsvValidationError(issues);
  });

  return {
    push(chunk: Uint8Array) {
      reader.push(chunk);
    },
    /** The number of data rows read so far (for progress). */
    get rows() {
      return split.length;
    },
    end(): Solution {
      reader.end();
      if (!columns) throw new CsvValidationError([{ line: 0, message: "the file is empty: expected a header id,label,split and one row per test example" }]);
      const rows = split.length;
      if (issues.length === 0) {
        if (rows === 0) problem(0, "the file has a header but no rows");
        else if (holdout === 0) problem(0, "the holdout split is empty: mark some rows split=holdout");
        else if (holdout === rows) problem(0, "the public split is empty: mark some rows split=public");
      }
      if (issues.length) throw new CsvValidationError(issues);
      return {
        ids: ids.build(),
        labels: labels.values(),
        classes: labelKind === "class" ? classes.names : null,
        split: split.values(),
        order: columns["order"] !== undefined ? order.values() : null,
        groups: columns["group"] !== undefined ? { codes: groupCodes.values(), names: groups.build() } : null,
        states: columns["state"] !== undefined ? { codes: stateCodes.values(), names: states.names } : null,
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
  let count = 0;
  let examples: string[] = [];
  for (let g = 0; g < names.length; g++) {
    if (seen[g] !== 3) continue;
    count++;
    examples.push(names.get(g));
    if (examples.length > 64) examples = examples.sort().slice(0, limit); // keep the first few by name
  }
  return { count, examples: examples.sort().slice(0, limit) };
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
