import type { Metric } from "../metrics/types";
import { CSV_LIMITS, type CsvCursor, CsvIssues, CsvReader, type CsvRecord, CsvValidationError } from "./reader";
import { headerHint } from "./hints";
import type { Solution } from "./solution";
import { fnv1a, PackedStrings } from "./strings";

const SPACE = 32;
const TAB = 9;
const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * The solution's ids → positions, looked up by the bytes of a CSV field, so that reading a submission
 * makes no string per row: an open-addressing table on an FNV-1a hash of the UTF-8 bytes, over the
 * ids' own bytes (strings.ts PackedStrings). A lookup first tries the position after the previous match, so a file in the
 * canonical order never hashes.
 *
 * Positions are in shortlex order (by length, then byte by byte: r2 before r10), a function of the
 * set of ids alone, never of the order of the solution's file: what a parse touches, and so how long
 * it takes, depends on how the submission's order stands to that public order and nothing else.
 * Indexed by the solution's rows, a file in the solution's order parsed many times faster than
 * the same file shuffled, and a rejected file (which spends nothing) could be timed to learn the
 * order the organizer's file was in (say, public rows first). `rowOf` maps positions to rows (null
 * when the solution's file lists its ids in shortlex order already: each position is its row).
 */
export class IdIndex {
  readonly size: number;
  /** The ids in canonical order: position p's id is `ids.get(p)`. */
  private readonly ids: PackedStrings;
  private readonly bytes: Uint8Array;
  private readonly starts: Int32Array;
  /** The solution's row of each position; null when they are the same. */
  readonly rowOf: Int32Array | null;
  /** No id holds a comma, a quote or a CR: each is a CSV field as it stands, unquoted. */
  readonly plain: boolean;
  private readonly table: Int32Array; // position + 1, 0 = empty
  private readonly mask: number;

  constructor(solutionIds: PackedStrings) {
    this.size = solutionIds.length;
    // A solution whose file lists its ids in shortlex order already (r0, r1, …) keeps them as they are.
    this.rowOf = inShortlexOrder(solutionIds) ? null : shortlexOrder(solutionIds);
    this.ids = this.rowOf ? reordered(solutionIds, this.rowOf) : solutionIds;
    this.bytes = this.ids.bytes;
    this.starts = this.ids.starts;
    this.plain = !this.bytes.includes(COMMA) && !this.bytes.includes(QUOTE) && !this.bytes.includes(CR);
    let slots = 1;
    while (slots < 2 * this.size) slots *= 2;
    this.table = new Int32Array(slots);
    this.mask = slots - 1;
    for (let p = 0; p < this.size; p++) {
      let h = fnv1a(this.bytes, this.starts[p], this.starts[p + 1] - 1) & this.mask;
      while (this.table[h] !== 0) h = (h + 1) & this.mask;
      this.table[h] = p + 1;
    }
  }

  /** The bytes it holds besides the solution: its hash table and, when positions are not rows, the ids in shortlex order with `rowOf`. */
  get byteLength(): number {
    return this.table.byteLength + (this.rowOf ? this.rowOf.byteLength + this.ids.byteLength : 0);
  }

  /** The position of the id held in `buf[start, end)`, or −1; `hint` is the position expected (e.g. the next). */
  find(buf: Uint8Array, start: number, end: number, hint: number): number {
    if (hint < this.size && this.equals(hint, buf, start, end)) return hint;
    return this.lookUp(buf, start, end);
  }

  /** Where position p's id ends if `buf` holds it from `start` with a byte after it (before `end`), else −1. */
  endOf(p: number, buf: Uint8Array, start: number, end: number): number {
    const stop = start + this.starts[p + 1] - 1 - this.starts[p];
    return stop < end && this.equals(p, buf, start, stop) ? stop : -1;
  }

  /** The position of the id held in `buf[start, end)` through the hash table, or −1. */
  lookUp(buf: Uint8Array, start: number, end: number): number {
    let h = fnv1a(buf, start, end) & this.mask;
    for (;;) {
      const p = this.table[h] - 1;
      if (p < 0) return -1;
      if (this.equals(p, buf, start, end)) return p;
      h = (h + 1) & this.mask;
    }
  }

  /** Position p's id. */
  name(p: number): string {
    return this.ids.get(p);
  }

  private equals(p: number, buf: Uint8Array, start: number, end: number): boolean {
    const from = this.starts[p];
    const length = this.starts[p + 1] - 1 - from;
    if (length !== end - start) return false;
    const bytes = this.bytes;
    for (let k = 0; k < length; k++) if (bytes[from + k] !== buf[start + k]) return false;
    return true;
  }
}

/** Whether every id of `ids` comes after the one before it in shortlex order (one pass, in row order). */
function inShortlexOrder(ids: PackedStrings): boolean {
  const { bytes, starts } = ids;
  for (let r = 1; r < ids.length; r++) {
    const a = starts[r - 1];
    const b = starts[r];
    const lengthA = b - 1 - a;
    const lengthB = starts[r + 1] - 1 - b;
    if (lengthA !== lengthB) {
      if (lengthA > lengthB) return false;
      continue;
    }
    let k = 0;
    while (k < lengthA && bytes[a + k] === bytes[b + k]) k++;
    if (k === lengthA || bytes[a + k] > bytes[b + k]) return false;
  }
  return true;
}

/** `ids` with row `order[p]` at position p. */
function reordered(ids: PackedStrings, order: Int32Array): PackedStrings {
  const source = ids.bytes;
  const bytes = new Uint8Array(ids.starts[order.length]);
  const starts = new Int32Array(order.length + 1);
  let at = 0;
  for (let p = 0; p < order.length; p++) {
    starts[p] = at;
    const to = ids.starts[order[p] + 1] - 1;
    for (let i = ids.starts[order[p]]; i < to; i++) bytes[at++] = source[i];
    bytes[at++] = LF;
  }
  starts[order.length] = at;
  return new PackedStrings(bytes, starts);
}

/** Below this many rows, a range is put in order by insertion rather than by another radix pass. */
const SMALL_RANGE = 16;

/**
 * The rows of `ids` in shortlex order: by byte length, then byte by byte (ids are distinct). A
 * counting sort by length, then a most-significant-byte radix sort of each length's rows, one
 * counting pass per byte position over the rows still tied there (McIlroy, Bostic and McIlroy 1993,
 * "Engineering radix sort"), insertion into small ranges: work in proportion to the ids' bytes.
 */
export function shortlexOrder(ids: PackedStrings): Int32Array {
  const n = ids.length;
  const { bytes, starts } = ids;
  const lengthOf = (r: number) => starts[r + 1] - 1 - starts[r];
  let longest = 0;
  for (let r = 0; r < n; r++) longest = Math.max(longest, lengthOf(r));
  const byLength = new Int32Array(longest + 2);
  for (let r = 0; r < n; r++) byLength[lengthOf(r) + 1]++;
  for (let l = 1; l < byLength.length; l++) byLength[l] += byLength[l - 1];
  // The rows, and where each one's id starts (moved with it: one memory access per row and pass).
  const order = new Int32Array(n);
  const at = new Int32Array(n);
  const next = byLength.slice();
  for (let r = 0; r < n; r++) {
    const i = next[lengthOf(r)]++;
    order[i] = r;
    at[i] = starts[r];
  }

  const digit = new Uint8Array(n);
  const movedOrder = new Int32Array(n);
  const movedAt = new Int32Array(n);
  const counts = new Int32Array(257);
  const stack: number[] = []; // triples: from, to, depth
  const rows: SortedRows = { order, at, bytes };
  for (let l = 0; l <= longest; l++) if (byLength[l + 1] - byLength[l] > 1) stack.push(byLength[l], byLength[l + 1], 0);
  while (stack.length) {
    const depth = stack.pop()!;
    const to = stack.pop()!;
    const from = stack.pop()!;
    const length = lengthOf(order[from]);
    if (depth >= length) continue;
    if (to - from <= SMALL_RANGE) {
      insertionSort(rows, from, to, depth, length);
      continue;
    }
    counts.fill(0);
    for (let i = from; i < to; i++) counts[(digit[i] = bytes[at[i] + depth]) + 1]++;
    if (counts[digit[from] + 1] === to - from) {
      stack.push(from, to, depth + 1); // one byte value for all: nothing to move
      continue;
    }
    for (let b = 1; b < 257; b++) counts[b] += counts[b - 1];
    for (let b = 0; b < 256; b++) if (counts[b + 1] - counts[b] > 1) stack.push(from + counts[b], from + counts[b + 1], depth + 1);
    for (let i = from; i < to; i++) {
      const j = from + counts[digit[i]]++;
      movedOrder[j] = order[i];
      movedAt[j] = at[i];
    }
    order.set(movedOrder.subarray(from, to), from);
    at.set(movedAt.subarray(from, to), from);
  }
  return order;
}

/** The rows being sorted by `shortlexOrder`, and the ids' bytes. */
type SortedRows = { order: Int32Array; at: Int32Array; bytes: Uint8Array };

/** Puts `order[from, to)` (rows of one length whose ids start at `at[…]` in `bytes`, equal before `depth`) in byte order. */
function insertionSort(rows: SortedRows, from: number, to: number, depth: number, length: number): void {
  const { order, at, bytes } = rows;
  const before = (a: number, b: number) => {
    for (let k = depth; k < length; k++) {
      const d = bytes[a + k] - bytes[b + k];
      if (d !== 0) return d < 0;
    }
    return false;
  };
  for (let i = from + 1; i < to; i++) {
    const row = order[i];
    const start = at[i];
    let j = i - 1;
    for (; j >= from && before(start, at[j]); j--) {
      order[j + 1] = order[j];
      at[j + 1] = at[j];
    }
    order[j + 1] = row;
    at[j + 1] = start;
  }
}

/**
 * The solution's classes. When every class is a number ("0", "1", "2.5"), predictions compare as
 * numbers, so "1.0" is the class "1"; otherwise as exact text (surrounding spaces aside).
 */
export class ClassIndex {
  private readonly byName: Map<string, number>;
  private readonly byValue: Map<number, number> | null;
  /** The names' UTF-8 bytes end to end, name c in `[spellingStarts[c], spellingStarts[c + 1])`. */
  private readonly spellings: Uint8Array;
  private readonly spellingStarts: Int32Array;
  /** By a name's first byte: the one class whose name starts with it, −2 when several do, −1 when none does. */
  private readonly byFirstByte = new Int32Array(256).fill(-1);
  /** At most 8 names, none empty or with a comma, quote or line break: each is a CSV field as it stands, unquoted. */
  readonly plain: boolean;
  /**
   * The classes as messages list them: sorted (numbers by value), at most 10. Never in the
   * solution's order, which is the order of first appearance: its first class is row 0's label.
   */
  readonly listed: string;

  constructor(readonly names: string[]) {
    this.byName = new Map(names.map((c, i) => [c, i]));
    const encoded = names.map((c) => Buffer.from(c, "utf8"));
    this.spellings = new Uint8Array(Buffer.concat(encoded));
    this.spellingStarts = Int32Array.from([0, ...encoded.map((e) => e.length)]);
    for (let c = 0; c < names.length; c++) {
      this.spellingStarts[c + 1] += this.spellingStarts[c];
      if (encoded[c].length === 0) continue;
      const first = encoded[c][0];
      this.byFirstByte[first] = this.byFirstByte[first] === -1 ? c : -2;
    }
    this.plain = names.length <= 8 && names.every((c) => c !== "" && !/[",\r\n]/.test(c));
    const values = names.map((c) => (c.trim() === "" ? NaN : Number(c)));
    const numeric = values.every(Number.isFinite) && new Set(values).size === values.length;
    this.byValue = numeric ? new Map(values.map((v, i) => [v, i])) : null;
    const sorted = numeric ? [...names].sort((a, b) => Number(a) - Number(b)) : [...names].sort();
    this.listed = `${sorted.slice(0, 10).join(", ")}${sorted.length > 10 ? ", …" : ""}`;
  }

  /** The class code of a prediction (its bytes `[start, end)` without surrounding spaces and tabs), or −1 when it is none of the classes. */
  find(record: CsvRecord, field: number, start: number, end: number): number {
    if (this.byValue) return this.byValue.get(readNumber(record, field, start, end)) ?? -1;
    if (record.escaped[field] || this.names.length > 8) return this.byName.get(record.text(field).trim()) ?? -1;
    return this.spelled(record.bytes, start, end);
  }

  /**
   * The class whose name is exactly the bytes `buf[start, end)`, or −1. For numeric classes too:
   * names of distinct values, so the same text is the same value.
   */
  spelled(buf: Uint8Array, start: number, end: number): number {
    const only = start < end ? this.byFirstByte[buf[start]] : -2;
    if (only >= 0) return this.is(only, buf, start, end) ? only : -1;
    if (only === -1) return -1;
    for (let c = 0; c < this.names.length; c++) if (this.is(c, buf, start, end)) return c;
    return -1;
  }

  /** Whether class c's name is exactly the bytes `buf[start, end)`. */
  private is(c: number, buf: Uint8Array, start: number, end: number): boolean {
    const from = this.spellingStarts[c];
    const length = end - start;
    if (this.spellingStarts[c + 1] - from !== length) return false;
    const bytes = this.spellings;
    for (let k = 0; k < length; k++) if (bytes[from + k] !== buf[start + k]) return false;
    return true;
  }
}

/** Per-row working arrays of one parse: the line each row was seen on, and the predictions. */
type Scratch = { seen: Int32Array; predictions: Int32Array | Float64Array; byRow: Int32Array | Float64Array | null };

/**
 * What a submission is checked against: the solution's ids and, for class metrics, its classes.
 * `idle` keeps a few working arrays between parses: they are as long as the solution, and
 * allocating them for every submission of 10⁶ rows made the garbage collector compact the whole
 * heap about once per submission.
 */
export type SubmissionKey = { ids: IdIndex; classes: ClassIndex | null; idle: Scratch[] };

export function submissionKey(solution: Pick<Solution, "ids" | "classes">): SubmissionKey {
  return { ids: new IdIndex(solution.ids), classes: solution.classes ? new ClassIndex(solution.classes) : null, idle: [] };
}

const IDLE_SCRATCH = 4;

/**
 * The most a key holds besides the solution: its id index (IdIndex.byteLength) and IDLE_SCRATCH
 * working arrays for `input` (the line of each row, the predictions and, when positions are not
 * rows, the predictions by row).
 */
export function submissionKeyBytes(key: SubmissionKey, input: Metric["input"]): number {
  const value = input === "class" ? 4 : 8;
  return key.ids.byteLength + IDLE_SCRATCH * key.ids.size * (4 + (key.ids.rowOf ? 2 : 1) * value);
}

/**
 * A number from the bytes `[start, end)` of a field, exactly as `Number(text)` reads it (NaN when it
 * is not one). Plain decimals of at most 15 digits take a fast path that is exact: the digits form an
 * integer m < 2⁵³ and 10^k (k ≤ 22) is a double, so m / 10^k is the correctly rounded value (Clinger
 * 1990, "How to read floating point numbers accurately"). Anything else goes through `Number`.
 */
function readNumber(record: CsvRecord, field: number, start: number, end: number): number {
  if (!record.escaped[field]) {
    const value = plainDecimal(record.bytes, start, end);
    if (!Number.isNaN(value)) return value;
  }
  const text = record.text(field).trim();
  return text === "" ? NaN : Number(text);
}

/** The plain decimal of at most 15 digits in `b[start, end)` (see readNumber), or NaN when it is anything else. */
function plainDecimal(b: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = b[i] === 45; // -
  if (negative || b[i] === 43) i++; // +
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < end; i++) {
    const c = b[i];
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === 46 && fraction < 0)
      fraction = 0; // .
    else break;
  }
  if (i !== end || digits === 0 || digits > 15) return NaN;
  const value = fraction > 0 ? mantissa / POWERS_OF_TEN[fraction] : mantissa;
  return negative ? -value : value;
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** A value quoted for a message, cut short when long. */
function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

/**
 * A streaming parser and validator for submission files (docs/mechanism.md): header `id,prediction`
 * (any order, any case), exactly one row for every solution id. Problems are reported with their
 * line: unknown or duplicate ids, a missing or non-numeric prediction, a probability outside [0, 1],
 * a class the solution does not have, and at the end the ids that got no prediction (a few, in
 * alphabetical order: the solution's own order could tell which rows are held out). Rows are
 * read and checked by their ids' positions (IdIndex), so a rejection takes as long whatever order
 * the solution's file is in; only a file that passes is put in the solution's order. Returns the
 * predictions indexed by solution row: class codes or numbers, valid until `release` is called
 * (the arrays are reused by later parses).
 */
export function createSubmissionParser(key: SubmissionKey, input: Metric["input"]) {
  const rows = key.ids.size;
  const issues = new CsvIssues();
  const values = () => (input === "class" ? new Int32Array(rows) : new Float64Array(rows));
  const scratch = key.idle.pop() ?? { seen: new Int32Array(rows), predictions: values(), byRow: null };
  const seen = scratch.seen; // by position: the line of its prediction, 0 = none yet
  const predictions = scratch.predictions; // by position (`end` answers them by row)
  let released = false;
  let idColumn = -1;
  let predictionColumn = -1;
  let width = 0;
  let next = 0; // the position expected next: files in shortlex order are read without hashing
  let inPlace = false; // the header is exactly id,prediction: `lane` may read rows

  const problem = (line: number, message: string) => issues.add(line, message);

  function header(record: CsvRecord) {
    const hint = headerHint(record.fields());
    if (hint) throw new CsvValidationError([{ line: record.line, message: hint }]);
    const names = record.fields().map((f) => f.trim().toLowerCase());
    idColumn = names.indexOf("id");
    predictionColumn = names.indexOf("prediction");
    width = names.length;
    const missing = ["id", "prediction"].filter((c) => !names.includes(c));
    if (missing.length) problem(record.line, `missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: the header must be id,prediction`);
    const unknown = names.filter((n) => n !== "id" && n !== "prediction");
    if (unknown.length) problem(record.line, `unknown column${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => quote(u)).join(", ")}: the header must be id,prediction`);
    issues.check();
    inPlace = idColumn === 0 && predictionColumn === 1 && width === 2 && key.ids.plain && (key.classes?.plain ?? true);
  }

  /**
   * Nearly every row of a real file, read where it lies (CsvReader's lane), one after the other: an
   * unquoted id of the solution not seen yet, a comma, a valid prediction without spaces or quotes (a
   * class spelled as the solution spells it, or a plain decimal), LF or CRLF. The first row that is
   * anything else is declined and read by `row`, which also names every problem; the unit tests
   * hold the two to the same answers. Only for ids and class names that are CSV fields as they stand
   * (`plain`): an id "a,b" must be quoted in a file, which the lane never reads.
   */
  function lane(b: Uint8Array, end: number, at: CsvCursor): void {
    if (!inPlace) return;
    const { ids, classes } = key;
    let start = at.offset;
    let line = at.line;
    let expected = next;
    for (;;) {
      let r = expected;
      let comma = r < rows ? ids.endOf(r, b, start, end) : -1;
      if (comma < 0 || b[comma] !== COMMA) {
        for (comma = start; comma < end && b[comma] !== COMMA; comma++) if (b[comma] === QUOTE || b[comma] === LF || b[comma] === CR) break;
        if (comma === end || b[comma] !== COMMA) break;
        r = ids.lookUp(b, start, comma);
        if (r < 0) break;
      }
      if (seen[r] !== 0) break;
      const from = comma + 1;
      let stop = from;
      while (stop < end && b[stop] !== LF && b[stop] !== CR) stop++;
      if (stop === from || stop - start > CSV_LIMITS.maxRecordBytes) break;
      const after = stop < end && b[stop] === LF ? stop + 1 : stop + 1 < end && b[stop + 1] === LF ? stop + 2 : -1;
      if (after < 0) break;
      const value = classes ? classes.spelled(b, from, stop) : plainDecimal(b, from, stop);
      if (classes ? value < 0 : Number.isNaN(value) || (input === "probability" && (value < 0 || value > 1))) break;
      predictions[r] = value;
      seen[r] = line++;
      expected = r + 1;
      start = after;
    }
    at.offset = start;
    at.line = line;
    next = expected;
  }

  function row(record: CsvRecord) {
    const line = record.line;
    if (record.count !== width) return problem(line, `expected ${width} fields, found ${record.count}`);
    let r: number;
    if (record.escaped[idColumn]) {
      const id = Buffer.from(record.text(idColumn));
      r = key.ids.find(id, 0, id.length, next);
    } else {
      r = key.ids.find(record.bytes, record.starts[idColumn], record.ends[idColumn], next);
    }
    if (r < 0) return problem(line, `id ${quote(record.text(idColumn))} is not in the test set`);
    if (seen[r]) return problem(line, `duplicate id ${quote(key.ids.name(r))} (first on line ${seen[r]})`);
    seen[r] = line;
    next = r + 1;

    const b = record.bytes;
    let start = record.starts[predictionColumn];
    let end = record.ends[predictionColumn];
    while (start < end && (b[start] === SPACE || b[start] === TAB)) start++;
    while (end > start && (b[end - 1] === SPACE || b[end - 1] === TAB)) end--;
    if (start === end) return problem(line, `empty prediction for id ${quote(key.ids.name(r))}`);
    if (key.classes) {
      const code = key.classes.find(record, predictionColumn, start, end);
      if (code < 0) return problem(line, `prediction ${quote(record.text(predictionColumn))} is not one of the classes ${key.classes.listed}`);
      predictions[r] = code;
      return;
    }
    const value = readNumber(record, predictionColumn, start, end);
    if (!Number.isFinite(value)) return problem(line, `prediction must be a number, found ${quote(record.text(predictionColumn))}`);
    if (input === "probability" && (value < 0 || value > 1)) return problem(line, `prediction must be a probability in [0, 1], found ${quote(record.text(predictionColumn))}`);
    predictions[r] = value;
  }

  /**
   * The predictions by solution row: each position's moved to its row (byRow[rowOf[p]] =
   * predictions[p]: sequential reads, one write each), the same work for every file of this
   * solution, whatever its order; the predictions themselves when positions are rows.
   */
  function byRow(): Int32Array | Float64Array {
    const { rowOf } = key.ids;
    if (!rowOf) return predictions;
    const out = (scratch.byRow ??= values());
    for (let p = 0; p < rows; p++) out[rowOf[p]] = predictions[p];
    return out;
  }

  const reader = new CsvReader(
    (record) => {
      if (width === 0) header(record);
      else row(record);
    },
    CSV_LIMITS,
    lane,
  );

  return {
    push(chunk: Uint8Array) {
      reader.push(chunk);
    },
    end(): Int32Array | Float64Array {
      reader.end();
      if (width === 0) throw new CsvValidationError([{ line: 0, message: "the file is empty: expected a header id,prediction and one row per test id" }]);
      if (issues.count === 0) {
        const missing: string[] = [];
        let count = 0;
        for (let r = 0; r < rows; r++) {
          if (seen[r]) continue;
          count++;
          missing.push(key.ids.name(r));
          if (missing.length > 64) missing.sort().splice(3); // keep the alphabetically first few
        }
        const examples = missing
          .sort()
          .slice(0, 3)
          .map((id) => quote(id));
        if (count) problem(0, `${count} test id${count > 1 ? "s have" : " has"} no prediction, e.g. ${examples.join(", ")}`);
      }
      issues.check();
      return byRow();
    },
    /** Hands the working arrays back for the next parse; the predictions are not to be read after. */
    release() {
      if (released) return;
      released = true;
      seen.fill(0);
      if (key.idle.length < IDLE_SCRATCH) key.idle.push(scratch);
    },
  };
}
