/** One CSV record and the line (1-based) it starts on. */
export type CsvRecord = { fields: string[]; line: number };

/** A problem in a CSV file, with the line it is on (0 when it concerns the whole file). */
export type CsvIssue = { line: number; message: string };

/** Thrown when a file is rejected; `issues` lists the first problems found, each with its line. */
export class CsvValidationError extends Error {
  constructor(readonly issues: CsvIssue[]) {
    super(issues.map((i) => (i.line ? `line ${i.line}: ${i.message}` : i.message)).join("; "));
    this.name = "CsvValidationError";
  }
}

const QUOTE = 34; // "
const COMMA = 44; // ,
const LF = 10;
const CR = 13;

/**
 * A streaming RFC 4180 reader: push text chunks as they arrive, get back the complete records.
 * Handles quoted fields (with "" escapes and embedded newlines), LF and CRLF endings, a leading
 * byte-order mark, and skips blank lines. Only the unfinished tail of the input is kept between
 * chunks, so memory stays bounded by the longest record.
 */
export class CsvReader {
  private buffer = "";
  private line = 1;
  private first = true;

  push(chunk: string): CsvRecord[] {
    if (this.first && chunk.length > 0) {
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      this.first = false;
    }
    this.buffer += chunk;
    return this.drain(false);
  }

  end(): CsvRecord[] {
    return this.drain(true);
  }

  private drain(final: boolean): CsvRecord[] {
    const records: CsvRecord[] = [];
    const s = this.buffer;
    let pos = 0;
    while (pos < s.length) {
      const parsed = parseRecord(s, pos, final, this.line);
      if (!parsed) break;
      if (!(parsed.fields.length === 1 && parsed.fields[0] === "" && !parsed.quoted)) records.push({ fields: parsed.fields, line: this.line });
      this.line += parsed.newlines;
      pos = parsed.next;
    }
    this.buffer = s.slice(pos);
    return records;
  }
}

/** Parses one record starting at `start`; null when the text ends before the record does. */
function parseRecord(s: string, start: number, final: boolean, line: number): { fields: string[]; next: number; newlines: number; quoted: boolean } | null {
  const fields: string[] = [];
  let i = start;
  let newlines = 0;
  let quoted = false;
  for (;;) {
    if (i < s.length && s.charCodeAt(i) === QUOTE) {
      quoted = true;
      let value = "";
      let from = i + 1;
      i = from;
      for (;;) {
        if (i >= s.length) {
          if (!final) return null;
          throw new CsvValidationError([{ line, message: "a quoted field is never closed" }]);
        }
        const c = s.charCodeAt(i);
        if (c === QUOTE) {
          if (i + 1 >= s.length && !final) return null;
          if (s.charCodeAt(i + 1) === QUOTE) {
            value += s.slice(from, i + 1);
            i += 2;
            from = i;
            continue;
          }
          value += s.slice(from, i);
          i += 1;
          break;
        }
        if (c === LF) newlines++;
        i++;
      }
      fields.push(value);
      if (i < s.length && s.charCodeAt(i) !== COMMA && s.charCodeAt(i) !== LF && s.charCodeAt(i) !== CR) {
        throw new CsvValidationError([{ line: line + newlines, message: "unexpected text after a closing quote" }]);
      }
    } else {
      let j = i;
      while (j < s.length) {
        const c = s.charCodeAt(j);
        if (c === COMMA || c === LF || c === CR) break;
        j++;
      }
      if (j >= s.length && !final) return null;
      fields.push(s.slice(i, j));
      i = j;
    }
    if (i >= s.length) {
      if (!final) return null;
      return { fields, next: i, newlines, quoted };
    }
    const c = s.charCodeAt(i);
    if (c === COMMA) {
      i++;
      continue;
    }
    if (c === CR) {
      if (i + 1 >= s.length && !final) return null;
      i += s.charCodeAt(i + 1) === LF ? 2 : 1;
    } else {
      i++;
    }
    return { fields, next: i, newlines: newlines + 1, quoted };
  }
}
