// Writing CSV exports (the leaderboard, the organizers' console): RFC 4180 quoting, CRLF lines.

/**
 * A CSV cell: quoted when needed, and defused when it could start a spreadsheet formula (OWASP CSV
 * injection). A number written as text ("-0.563", a score to its shown decimals) is left as it is.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV lines, each ended by CRLF (an export written a part at a time). */
export function csvLines(rows: (string | number | null)[][]): string {
  return rows.map((row) => row.map(csvCell).join(",") + "\r\n").join("");
}

/** A CSV table: the header line and one line per row, each ended by CRLF. */
export function csvTable(header: string[], rows: (string | number | null)[][]): string {
  return csvLines([header, ...rows]);
}
