/**
 * A download's conditional and partial requests (RFC 9110 §13–§14), as the file routes answer them.
 * Pure: headers in, a decision out.
 */

/** One range of bytes, both ends included. */
export type ByteRange = { start: number; end: number };

/**
 * What a `Range` header asks of a file of `size` bytes: one range, clipped to the file (`bytes=a-b`,
 * `bytes=a-`, or the last n bytes `bytes=-n`); "unsatisfiable" when it starts past the end (416);
 * null for the whole file: no header, a unit other than bytes, a malformed value, or several ranges
 * (which a server may answer whole, RFC 9110 §14.2: clients resuming a download ask for one).
 */
export function parseRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  const [first, last] = [match[1], match[2]];
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    return size === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) };
}

/** Whether an `If-None-Match` header names `etag` (or is `*`): then the client's copy is current (304). Weak comparison, §13.1.2. */
export function matchesNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}

/**
 * Whether a `Range` may be honoured under `If-Range` (§13.1.5): when there is no If-Range, or it is
 * exactly this strong `etag`. A date or another tag means the client's part is of another version:
 * it gets the whole file.
 */
export function rangeStillValid(ifRange: string | null, etag: string): boolean {
  return ifRange === null || ifRange.trim() === etag;
}
