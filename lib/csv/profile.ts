import { createHash } from "node:crypto";
import { isUtf16, UTF16_MESSAGE } from "./hints";
import { CsvReader, CsvValidationError, type CsvRecord } from "./reader";
import { fnv1a } from "./strings";

/**
 * What the Data tab shows of a CSV data file (docs/using.md, "The Data tab"), computed in one pass
 * over its bytes as they stream in, in memory bounded whatever the file's size:
 * - the header and the first `previewRows` rows (each cell cut at `cellChars` characters);
 * - per column (the first `columns` of them) its type, its missing values, its distinct values
 *   counted exactly up to `distinct` (then "more than `distinct`": the set is dropped, so a column
 *   holds at most `distinct` keys, each at most 64 bytes or a SHA-256 in their place), and the
 *   smallest and largest value of a numeric column, the earliest and latest of a date column.
 * Records are read by the CSV reader (reader.ts: quotes, CRLF, a byte-order mark, UTF-8 checked), up
 * to `maxRecordBytes` a record and `maxFields` fields; a record beyond them, text that is not UTF-8
 * or a NUL byte (a binary file) ends the pass with a reason instead of a preview.
 */
export const PROFILE_LIMITS = { previewRows: 10, columns: 50, cellChars: 200, distinct: 1000, maxRecordBytes: 1024 * 1024, maxFields: 10_000 };
export type ProfileLimits = typeof PROFILE_LIMITS;

/**
 * A column's type: every non-missing value an integer, a number (decimal or exponent), a boolean
 * (true/false in any case), a date (ISO 8601: YYYY-MM-DD, optionally a time and an offset), else
 * text; "empty" when every value is missing.
 */
export type ColumnType = "integer" | "number" | "boolean" | "date" | "text" | "empty";

export type ColumnSummary = {
  name: string;
  type: ColumnType;
  /** values that are empty or one of MISSING_VALUES, and fields a short row lacks */
  missing: number;
  /** distinct non-missing values: exactly this many when `distinctExact`, else more than this many */
  distinct: number;
  distinctExact: boolean;
  /** the smallest and largest value of an integer or number column; else null */
  min: number | null;
  max: number | null;
  /** the earliest and latest value of a date column, as written (ISO 8601 sorts as text); else null */
  earliest: string | null;
  latest: string | null;
};

/** A data file's preview: a CSV file's, or none and why. */
export type FilePreview =
  | {
      kind: "csv";
      /** the header's fields (the first `columns` of them) */
      header: string[];
      /** fields in the header, all of them */
      columns: number;
      /** data rows (records after the header; blank lines are not rows) */
      rows: number;
      /** data rows whose field count differs from the header's */
      ragged: number;
      /** the first rows, cut to the header's columns shown and to `cellChars` characters a cell */
      preview: string[][];
      summaries: ColumnSummary[];
    }
  | { kind: "none"; reason: string };

/** What pandas.read_csv reads as missing by default (its `na_values`), and the empty field. */
export const MISSING_VALUES: ReadonlySet<string> = new Set([
  "",
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "None",
  "n/a",
  "nan",
  "null",
]);
const LONGEST_MISSING = 8;

const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const LONGEST_DATE = 35;
/** Values longer than this are counted as distinct by their SHA-256. */
const KEY_BYTES = 64;

/** Set by numberValue: whether the number it read has a point or an exponent. */
let decimal = false;

/**
 * The value of `buf[s, e)` when it is a number (`[+-]?digits[.digits][(e|E)[+-]digits]`, a digit on
 * one side of the point at least), else NaN; `decimal` says whether it had a point or an exponent.
 * One pass over the bytes: up to 15 digits and no exponent, the digits as an integer m (exact below
 * 2^53) divided by 10^k (exact for k <= 22), one correctly rounded division and so the same double
 * as Number() (Clinger, "How to read floating point numbers accurately", PLDI 1990, the fast path);
 * otherwise Number() of the text.
 */
function numberValue(buf: Uint8Array, s: number, e: number): number {
  let i = s;
  const negative = buf[i] === 45;
  if (negative || buf[i] === 43) i++;
  let m = 0;
  let digits = 0;
  let c = 0;
  for (; i < e && (c = buf[i]) >= 48 && c <= 57; i++, digits++) m = m * 10 + (c - 48);
  let decimals = 0;
  decimal = false;
  if (i < e && c === 46) {
    decimal = true;
    for (i++; i < e && (c = buf[i]) >= 48 && c <= 57; i++, decimals++) m = m * 10 + (c - 48);
  }
  if (digits + decimals === 0) return NaN;
  if (i < e) {
    if (c !== 101 && c !== 69) return NaN;
    decimal = true;
    i++;
    if (i < e && (buf[i] === 43 || buf[i] === 45)) i++;
    const start = i;
    while (i < e && buf[i] >= 48 && buf[i] <= 57) i++;
    if (i === start || i < e) return NaN;
    return Number(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("latin1", s, e));
  }
  if (digits + decimals > 15) return Number(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("latin1", s, e));
  const v = decimals > 0 ? m / 10 ** decimals : m;
  return negative ? -v : v;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Whether `buf[s, e)` is a date as DATE (the pattern above) describes it, byte by byte. */
function isDate(buf: Uint8Array, s: number, e: number): boolean {
  if (e - s < 10 || e - s > LONGEST_DATE) return false;
  for (let i = 0; i < 10; i++) if (i === 4 || i === 7 ? buf[s + i] !== 45 : !isDigit(buf[s + i])) return false;
  return e - s === 10 || DATE.test(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("latin1", s, e));
}

/** Whether `buf[s, e)` is true or false, in any case. */
function isBoolean(buf: Uint8Array, s: number, e: number): boolean {
  const word = e - s === 4 ? "true" : e - s === 5 ? "false" : null;
  if (!word) return false;
  for (let i = 0; i < word.length; i++) if ((buf[s + i] | 0x20) !== word.charCodeAt(i)) return false;
  return true;
}

/** Where a missing marker may start: "#-1<Nn" (so most values need no string to be ruled out). */
const MISSING_FIRST = new Set([..."#-1<Nn"].map((c) => c.charCodeAt(0)));

/** `a[0, a.length)` against `b[s, e)`, as bytes (the order of ISO 8601 text). */
function compareBytes(a: Uint8Array, b: Uint8Array, s: number, e: number): number {
  const n = Math.min(a.length, e - s);
  for (let i = 0; i < n; i++) if (a[i] !== b[s + i]) return a[i] - b[s + i];
  return a.length - (e - s);
}

/**
 * The distinct values of a column, up to `cap` of them: their bytes (a value longer than KEY_BYTES
 * by a NUL and its SHA-256, which no text holds) one after another in `arena`, found through an
 * open-addressing table of FNV-1a hashes; no string is made to count a value.
 */
class ByteSet {
  size = 0;
  private arena = new Uint8Array(4096);
  private used = 0;
  private readonly starts: Int32Array;
  private readonly hashes: Uint32Array;
  /** slot -> key index + 1 (0: empty); at least twice as many slots as keys, so a probe always ends */
  private readonly slots: Int32Array;

  constructor(readonly cap: number) {
    this.starts = new Int32Array(cap + 2);
    this.hashes = new Uint32Array(cap + 1);
    let n = 2;
    while (n < 2 * (cap + 1)) n *= 2;
    this.slots = new Int32Array(n);
  }

  private equals(k: number, buf: Uint8Array, s: number, e: number): boolean {
    const from = this.starts[k];
    if (this.starts[k + 1] - from !== e - s) return false;
    for (let i = 0; i < e - s; i++) if (this.arena[from + i] !== buf[s + i]) return false;
    return true;
  }

  /** Adds `buf[s, e)`; false once more than `cap` distinct values have been added (then the set is full and says nothing more). */
  add(buf: Uint8Array, s: number, e: number): boolean {
    if (e - s > KEY_BYTES) {
      buf = Buffer.concat([Buffer.of(0), createHash("sha256").update(buf.subarray(s, e)).digest()]);
      s = 0;
      e = buf.length;
    }
    const h = fnv1a(buf, s, e);
    const mask = this.slots.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const k = this.slots[slot] - 1;
      if (k < 0) break;
      if (this.hashes[k] === h && this.equals(k, buf, s, e)) return true;
    }
    if (this.size === this.cap) return false;
    if (this.used + e - s > this.arena.length) {
      const bigger = new Uint8Array(Math.max(2 * this.arena.length, this.used + e - s));
      bigger.set(this.arena.subarray(0, this.used));
      this.arena = bigger;
    }
    this.arena.set(buf.subarray(s, e), this.used);
    this.used += e - s;
    const k = this.size++;
    this.hashes[k] = h;
    this.starts[k + 1] = this.used;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      if (this.slots[slot] === 0) {
        this.slots[slot] = k + 1;
        return true;
      }
    }
  }
}

/** One column's running summary. */
class ColumnState {
  canInteger = true;
  canNumber = true;
  canBoolean = true;
  canDate = true;
  present = 0;
  missing = 0;
  min = Infinity;
  max = -Infinity;
  firstDate: Uint8Array | null = null;
  lastDate: Uint8Array | null = null;
  values: ByteSet | null;

  constructor(
    readonly name: string,
    cap: number,
  ) {
    this.values = new ByteSet(cap);
  }

  add(r: CsvRecord, f: number): void {
    let s = r.starts[f];
    let e = r.ends[f];
    let buf: Uint8Array = r.bytes;
    if (r.escaped[f]) {
      buf = Buffer.from(r.text(f)); // its "" pairs as the one quote they stand for
      s = 0;
      e = buf.length;
    }
    const length = e - s;
    if (length === 0) {
      this.missing++;
      return;
    }
    const v = this.canNumber ? numberValue(buf, s, e) : NaN;
    if (v !== v && length <= LONGEST_MISSING && MISSING_FIRST.has(buf[s]) && MISSING_VALUES.has(r.text(f))) {
      this.missing++;
      return;
    }
    this.present++;
    if (v === v) {
      if (decimal) this.canInteger = false;
      if (v < this.min) this.min = v;
      if (v > this.max) this.max = v;
    } else {
      this.canInteger = this.canNumber = false;
    }
    if (this.canBoolean) this.canBoolean = isBoolean(buf, s, e);
    if (this.canDate) {
      this.canDate = isDate(buf, s, e);
      if (this.canDate) {
        if (this.firstDate === null || compareBytes(this.firstDate, buf, s, e) > 0) this.firstDate = Uint8Array.from(buf.subarray(s, e));
        if (this.lastDate === null || compareBytes(this.lastDate, buf, s, e) < 0) this.lastDate = Uint8Array.from(buf.subarray(s, e));
      }
    }
    if (this.values && !this.values.add(buf, s, e)) this.values = null;
  }

  summary(cap: number): ColumnSummary {
    const type: ColumnType = this.present === 0 ? "empty" : this.canInteger ? "integer" : this.canNumber ? "number" : this.canBoolean ? "boolean" : this.canDate ? "date" : "text";
    const numeric = type === "integer" || type === "number";
    const date = (bytes: Uint8Array | null) => (type === "date" && bytes ? Buffer.from(bytes).toString("latin1") : null);
    return {
      name: this.name,
      type,
      missing: this.missing,
      distinct: this.values ? this.values.size : cap,
      distinctExact: this.values !== null,
      min: numeric ? this.min : null,
      max: numeric ? this.max : null,
      earliest: date(this.firstDate),
      latest: date(this.lastDate),
    };
  }
}

const cut = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars - 1)}…` : text);

/**
 * The one-pass summary of a data file: push its chunks as they arrive (in order), then `finish`.
 * Each chunk is read before `push` returns, so a caller that passes the chunk on afterwards keeps
 * memory flat; after a reason to stop (not UTF-8, a NUL byte, a record too long) further chunks are
 * only counted out. Whether the file is meant as CSV (its name) is the caller's to say.
 */
export class CsvProfiler {
  private readonly reader: CsvReader;
  private reason: string | null = null;
  private first = true;
  private header: string[] | null = null;
  private columns: ColumnState[] = [];
  private width = 0;
  private rows = 0;
  private ragged = 0;
  private readonly preview: string[][] = [];

  constructor(private readonly limits: ProfileLimits = PROFILE_LIMITS) {
    this.reader = new CsvReader((r) => this.record(r), { maxRecordBytes: limits.maxRecordBytes, maxFields: limits.maxFields });
  }

  push(chunk: Uint8Array): void {
    if (this.reason !== null) return;
    if (this.first) {
      this.first = false;
      if (isUtf16(chunk)) return this.stop(UTF16_MESSAGE);
    }
    if (Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).indexOf(0) >= 0) {
      this.stop("the file holds NUL bytes: it is binary, not CSV text");
      return;
    }
    this.guard(() => this.reader.push(chunk));
  }

  finish(): FilePreview {
    if (this.reason === null) this.guard(() => this.reader.end());
    if (this.reason !== null) return { kind: "none", reason: this.reason };
    if (this.header === null) return { kind: "none", reason: "the file is empty" };
    return {
      kind: "csv",
      header: this.header,
      columns: this.width,
      rows: this.rows,
      ragged: this.ragged,
      preview: this.preview,
      summaries: this.columns.map((c) => c.summary(this.limits.distinct)),
    };
  }

  private guard(read: () => void): void {
    try {
      read();
    } catch (error) {
      if (!(error instanceof CsvValidationError)) throw error;
      this.stop(error.message);
    }
  }

  private stop(reason: string): void {
    this.reason = reason;
    this.columns = []; // the distinct values' memory, at once
  }

  private record(r: CsvRecord): void {
    if (this.header === null) {
      const { columns: shown, cellChars, distinct } = this.limits;
      this.width = r.count;
      this.header = r
        .fields()
        .slice(0, shown)
        .map((name) => cut(name, cellChars));
      this.columns = this.header.map((name) => new ColumnState(name, distinct));
      return;
    }
    this.rows++;
    if (r.count !== this.width) this.ragged++;
    const n = this.columns.length;
    for (let f = 0; f < n; f++) {
      if (f < r.count) this.columns[f].add(r, f);
      else this.columns[f].missing++;
    }
    if (this.preview.length < this.limits.previewRows) this.preview.push(Array.from({ length: Math.min(r.count, n) }, (_, f) => cut(r.text(f), this.limits.cellChars)));
  }
}

/** The preview of the file whose chunks `chunks` yields, in one pass (CsvProfiler). */
export async function profileCsv(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, limits: ProfileLimits = PROFILE_LIMITS): Promise<FilePreview> {
  const profiler = new CsvProfiler(limits);
  for await (const chunk of chunks) profiler.push(chunk);
  return profiler.finish();
}

/** Chunks pass through unchanged, each read by `profiler` first: how an upload is profiled on its way to the store. */
export function profiling(profiler: CsvProfiler): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    transform(chunk, controller) {
      profiler.push(chunk);
      controller.enqueue(chunk);
    },
  });
}

/** A data file's preview once it has passed through `profiler`: CSV files (named `*.csv`, or sent as text/csv) get one. */
export function filePreview(profiler: CsvProfiler, file: { filename: string; contentType: string }): FilePreview {
  const csv = /\.csv$/i.test(file.filename) || /^text\/csv\b/i.test(file.contentType);
  return csv ? profiler.finish() : { kind: "none", reason: "not a CSV file" };
}
