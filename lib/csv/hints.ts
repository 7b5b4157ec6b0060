// What a file that is not the CSV it should be usually is, said in words a user can act on: a
// spreadsheet's "Unicode text" (UTF-16), another column separator, a pandas index written as the
// first column. Each is recognised from the first bytes or the header alone, before any row.

/** The message for a UTF-16 file (either byte order, with or without a byte-order mark). */
export const UTF16_MESSAGE = 'this file is UTF-16; save it as UTF-8 (Excel: Save As "CSV UTF-8 (Comma delimited)"; pandas writes UTF-8 unless given another encoding)';

/** Bytes looked at for a UTF-16 file without a byte-order mark. */
const SNIFF_BYTES = 64;

/**
 * Whether the file's first bytes are UTF-16: a byte-order mark (FF FE or FE FF), or text whose every
 * other byte is NUL (the zero high bytes of Latin letters, digits and punctuation), which UTF-8 text
 * never has. `head` holds at least 4 bytes, or the whole file.
 */
export function isUtf16(head: Uint8Array): boolean {
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) return true;
  const n = Math.min(head.length, SNIFF_BYTES) & ~1;
  if (n < 4) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) even++;
    if (head[i + 1] === 0) odd++;
  }
  const half = n / 2;
  return (odd * 2 >= half && even === 0) || (even * 2 >= half && odd === 0);
}

const SEPARATORS: [string, string][] = [
  [";", "semicolons"],
  ["\t", "tabs"],
  ["|", "vertical bars"],
];

const quote = (text: string) => JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);

/**
 * A header's problem that the expected columns' own messages would hide, or null: one field holding
 * another separator ("id;prediction": Excel's CSV where the decimal separator is a comma, or a
 * tab-separated file), or a first column without a name or named "Unnamed: 0" (a pandas DataFrame
 * written with its index, or read back and written again).
 */
export function headerHint(fields: string[]): string | null {
  if (fields.length === 1) {
    const found = SEPARATORS.find(([separator]) => fields[0].includes(separator));
    if (found)
      return `the header ${quote(fields[0])} is separated by ${found[1]}, not commas: save the file with commas between the columns (pandas: to_csv without sep=; Excel: "CSV UTF-8 (Comma delimited)")`;
  }
  const first = fields[0]?.trim() ?? "";
  if (fields.length > 1 && (first === "" || /^unnamed: 0$/i.test(first)))
    return `the first column has no name (${quote(fields[0])}): it looks like a pandas index; write the file with to_csv(path, index=False)`;
  return null;
}
