import { isUtf8 } from "node:buffer";
import { isUtf16, UTF16_MESSAGE } from "./hints";

/** A problem in a CSV file, with the line it is on (0 when it concerns the whole file). */
export type CsvIssue = { line: number; message: string };

/**
 * Thrown when a file is rejected; `issues` lists the first problems found, each with its line, and
 * when there were more than it lists (`total`), a last issue that says how many in all.
 */
export class CsvValidationError extends Error {
  readonly issues: CsvIssue[];
  constructor(listed: CsvIssue[], total = listed.length) {
    const more = total - listed.length;
    const issues =
      more > 0 ? [...listed, { line: 0, message: `and ${more.toLocaleString("en")} more problem${more > 1 ? "s" : ""} (${total.toLocaleString("en")} in all)` }] : listed;
    super(issues.map((i) => (i.line ? `line ${i.line}: ${i.message}` : i.message)).join("; "));
    this.issues = issues;
    this.name = "CsvValidationError";
  }
}

/** The problems a file's parser lists: the first 20, and how many there are in all (the file is read to its end to count them). */
export class CsvIssues {
  static readonly LISTED = 20;
  readonly listed: CsvIssue[] = [];
  count = 0;

  add(line: number, message: string): void {
    this.count++;
    if (this.listed.length < CsvIssues.LISTED) this.listed.push({ line, message });
  }

  /** Throws the problems found, if any. */
  check(): void {
    if (this.count > 0) throw new CsvValidationError(this.listed, this.count);
  }
}

/** What one record may hold: a longer record, or more fields, is rejected with its line. */
export type CsvLimits = { maxRecordBytes: number; maxFields: number };

/** Far above any real solution or submission line (an id, a label, a split, an order, a group, a state). */
export const CSV_LIMITS: CsvLimits = { maxRecordBytes: 16 * 1024, maxFields: 16 };

/**
 * One record as the reader hands it over: its fields are byte ranges `[starts[i], ends[i])` of
 * `bytes`, valid only during the callback (the buffers are the reader's). Parsers that compare bytes
 * (submission ids) use the ranges; the others ask for `text`.
 */
export class CsvRecord {
  /** the line (1-based) the record starts on */
  line = 1;
  /** the number of fields */
  count = 0;
  bytes: Buffer = Buffer.alloc(0);
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** 1 for a quoted field holding "" pairs: its bytes are not unescaped, its text is */
  readonly escaped: Uint8Array;
  /** 1 for a quoted field */
  readonly quoted: Uint8Array;

  constructor(maxFields: number) {
    this.starts = new Int32Array(maxFields);
    this.ends = new Int32Array(maxFields);
    this.escaped = new Uint8Array(maxFields);
    this.quoted = new Uint8Array(maxFields);
  }

  text(field: number): string {
    const s = this.bytes.toString("utf8", this.starts[field], this.ends[field]);
    return this.escaped[field] ? s.replaceAll('""', '"') : s;
  }

  fields(): string[] {
    return Array.from({ length: this.count }, (_, i) => this.text(i));
  }
}

const QUOTE = 34; // "
const COMMA = 44; // ,
const LF = 10;
const CR = 13;

// Scanner states: at the start of a field, inside an unquoted field, inside a quoted field, and just
// after a quote inside a quoted field (either the closing quote or the first of a "" pair).
const FIELD = 0;
const PLAIN = 1;
const QUOTED = 2;
const QUOTE_SEEN = 3;
const BOM = [0xef, 0xbb, 0xbf];

/** Where a lane is: the offset of the next record and its line. */
export type CsvCursor = { offset: number; line: number };

/**
 * A parser's own reading of its most common records, tried where a record starts: from
 * `at.offset` (on line `at.line`) it reads whole records, each with its line break, for as long as
 * it can, advancing `at` past each; the first record it declines (and the end of the bytes that have
 * arrived, `end`) stops it, and that record is read the general way and handed to `onRecord`. It must
 * decline anything it would read differently (a quote, a field count, a byte it does not expect), and
 * any record longer than `maxRecordBytes`.
 */
export type CsvLane = (buf: Uint8Array, end: number, at: CsvCursor) => void;

/**
 * A streaming RFC 4180 reader over bytes. Push the body's chunks as they arrive; each complete
 * record is handed to `onRecord`. Handles quoted fields (with "" escapes and embedded newlines), LF,
 * CRLF and CR endings, a leading UTF-8 byte-order mark, and skips blank lines.
 *
 * Linear time: every byte is scanned once, and the scan resumes where the previous chunk ended (only
 * the unfinished record is carried over, copied once). A record longer than `maxRecordBytes` or with
 * more than `maxFields` fields is an error naming its line as soon as it is seen, so memory stays
 * bounded by the longest record allowed whatever is sent. The text must be UTF-8; it is checked once
 * per chunk, natively.
 */
export class CsvReader {
  private readonly record: CsvRecord;
  /** The unfinished record's bytes (the first `carried`), followed by the next chunk; reused. */
  private work = new Uint8Array(0);
  private carried = 0;
  private state = FIELD;
  private recordStart = 0;
  private fieldStart = 0;
  private fieldEscaped = false;
  private afterCR = false;
  private scanLine = 1;
  private first = true;
  private ending = false;
  private readonly cursor: CsvCursor = { offset: 0, line: 0 };

  constructor(
    private readonly onRecord: (record: CsvRecord) => void,
    private readonly limits: CsvLimits = CSV_LIMITS,
    private readonly lane: CsvLane | null = null,
  ) {
    this.record = new CsvRecord(limits.maxFields);
  }

  push(chunk: Uint8Array): void {
    let buf = chunk;
    let from = 0;
    if (this.carried > 0) {
      this.reserve(this.carried + chunk.length, true);
      this.work.set(chunk, this.carried);
      buf = this.work.subarray(0, this.carried + chunk.length);
      from = this.first ? 0 : this.carried;
    }
    if (this.first) {
      if (buf.length < 4 && !this.ending) {
        this.keep(buf, 0); // could still become a byte-order mark, or show the NULs of UTF-16
        return;
      }
      this.first = false;
      if (isUtf16(buf)) throw new CsvValidationError([{ line: 0, message: UTF16_MESSAGE }]);
      if (buf[0] === BOM[0] && buf[1] === BOM[1] && buf[2] === BOM[2]) buf = buf.subarray(3);
    }
    this.scan(buf, from);
  }

  /** Ends the input: the last record may lack its line break; an open quote is an error. */
  end(): void {
    this.ending = true;
    this.push(Uint8Array.of(LF));
    if (this.state === QUOTED) throw new CsvValidationError([{ line: this.record.line, message: "a quoted field is never closed" }]);
  }

  private scan(buf: Uint8Array, from: number): void {
    const n = buf.length;
    const firstLine = this.record.line;
    this.record.bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    let i = from;
    let state = this.state;
    const r = this.record;
    const lane = this.lane;
    const cursor = this.cursor;
    while (i < n) {
      // Fast path: a whole record of unquoted fields ending in LF, read in one pass. Anything else
      // (a quote, a CR, the end of the chunk, too many fields) falls through to the state machine,
      // which reads the record again from its start.
      if (state === FIELD && r.count === 0 && !this.afterCR) {
        if (lane !== null) {
          cursor.offset = i;
          cursor.line = this.scanLine;
          lane(buf, n, cursor);
          i = this.recordStart = cursor.offset;
          r.line = this.scanLine = cursor.line;
          if (i === n) break;
        }
        let j = i;
        let fieldStart = i;
        let count = 0;
        while (j < n) {
          const c = buf[j];
          if (c === COMMA) {
            if (count === this.limits.maxFields - 1) break;
            r.starts[count] = fieldStart;
            r.ends[count++] = j;
            fieldStart = j + 1;
          } else if (c === LF || c === QUOTE || c === CR) break;
          j++;
        }
        if (j < n && buf[j] === LF) {
          r.starts[count] = fieldStart;
          r.ends[count++] = j;
          r.count = count;
          this.checkLength(j);
          if (!(count === 1 && fieldStart === j)) this.onRecord(r);
          r.count = 0;
          r.line = ++this.scanLine;
          i = j + 1;
          this.recordStart = i;
          continue;
        }
      }
      if (this.afterCR) {
        this.afterCR = false;
        if (buf[i] === LF) {
          this.recordStart = ++i;
          continue;
        }
      }
      if (state === PLAIN) {
        let j = i;
        while (j < n) {
          const d = buf[j];
          if (d === COMMA || d === LF || d === CR) break;
          j++;
        }
        i = j;
        if (j === n) break;
        this.addField(this.fieldStart, j, false);
        state = this.separator(buf, j);
        i++;
      } else if (state === QUOTED) {
        let j = i;
        while (j < n) {
          const d = buf[j];
          if (d === QUOTE) break;
          if (d === LF) this.scanLine++;
          j++;
        }
        i = j;
        if (j === n) break;
        state = QUOTE_SEEN;
        i++;
      } else {
        const c = buf[i];
        if (state === FIELD && c === QUOTE) {
          state = QUOTED;
          this.fieldStart = i + 1;
          this.fieldEscaped = false;
        } else if (state === QUOTE_SEEN && c === QUOTE) {
          this.fieldEscaped = true; // "" inside quotes
          state = QUOTED;
        } else if (c === COMMA || c === LF || c === CR) {
          if (state === FIELD) this.addField(i, i, false);
          else this.addField(this.fieldStart, i - 1, true);
          state = this.separator(buf, i);
        } else if (state === FIELD) {
          state = PLAIN;
          this.fieldStart = i;
          continue;
        } else {
          throw new CsvValidationError([{ line: this.scanLine, message: "unexpected text after a closing quote" }]);
        }
        i++;
      }
    }
    this.state = state;
    this.checkLength(n);
    this.checkUtf8(buf, this.recordStart, firstLine);
    // Carry the unfinished record into the next chunk, its offsets rebased.
    const offset = this.recordStart;
    this.keep(buf, offset);
    for (let f = 0; f < r.count; f++) {
      r.starts[f] -= offset;
      r.ends[f] -= offset;
    }
    this.fieldStart -= offset;
    this.recordStart = 0;
  }

  /** Room for `size` bytes in `work`, keeping the carried bytes when asked. */
  private reserve(size: number, keepCarried: boolean): void {
    if (this.work.length >= size) return;
    const bigger = new Uint8Array(Math.max(size, 2 * this.work.length, 64 * 1024));
    if (keepCarried) bigger.set(this.work.subarray(0, this.carried));
    this.work = bigger;
  }

  /** Carries `buf[from…]` (the unfinished record) to the start of `work`. */
  private keep(buf: Uint8Array, from: number): void {
    const rest = buf.subarray(from);
    if (rest.length > this.work.length) {
      const bigger = new Uint8Array(Math.max(rest.length, 2 * this.work.length, 64 * 1024));
      bigger.set(rest);
      this.work = bigger;
    } else {
      this.work.set(rest); // may overlap when `buf` is `work`: set copies as if through a temporary
    }
    this.carried = rest.length;
  }

  private addField(start: number, end: number, quoted: boolean): void {
    const r = this.record;
    if (r.count === this.limits.maxFields) throw new CsvValidationError([{ line: r.line, message: `more than ${this.limits.maxFields} fields: is this the right file?` }]);
    r.starts[r.count] = start;
    r.ends[r.count] = end;
    r.escaped[r.count] = quoted && this.fieldEscaped ? 1 : 0;
    r.quoted[r.count] = quoted ? 1 : 0;
    r.count++;
  }

  /** A field ended at `i` on a comma or a line break; a line break ends the record. The next state. */
  private separator(buf: Uint8Array, i: number): number {
    const c = buf[i];
    if (c === COMMA) return FIELD;
    this.checkLength(i);
    const r = this.record;
    const blank = r.count === 1 && r.starts[0] === r.ends[0] && !r.quoted[0];
    if (!blank) this.onRecord(r);
    r.escaped.fill(0, 0, r.count); // the fast path leaves these at 0
    r.quoted.fill(0, 0, r.count);
    r.count = 0;
    r.line = ++this.scanLine;
    this.recordStart = i + 1;
    if (c === CR) this.afterCR = true;
    return FIELD;
  }

  private checkLength(upTo: number): void {
    if (upTo - this.recordStart > this.limits.maxRecordBytes) {
      throw new CsvValidationError([{ line: this.record.line, message: `the line is longer than ${this.limits.maxRecordBytes} bytes: is this the right file?` }]);
    }
  }

  /** Complete records are checked for UTF-8 once, natively; on failure the line is looked for. */
  private checkUtf8(buf: Uint8Array, upTo: number, firstLine: number): void {
    if (upTo === 0 || isUtf8(buf.subarray(0, upTo))) return;
    let line = firstLine;
    for (let s = 0; s < upTo; line++) {
      const lf = buf.indexOf(LF, s);
      const e = lf < 0 || lf >= upTo ? upTo : lf;
      if (!isUtf8(buf.subarray(s, e))) throw new CsvValidationError([{ line, message: "the text is not valid UTF-8 (save the file as UTF-8)" }]);
      s = e + 1;
    }
    throw new CsvValidationError([{ line: 0, message: "the text is not valid UTF-8 (save the file as UTF-8)" }]);
  }
}
