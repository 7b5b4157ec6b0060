import { describe, expect, it } from "vitest";
import { matchesNoneMatch, parseRange, rangeStillValid } from "@/lib/validation/ranges";

// RFC 9110 §14.1.2's examples on a file of 10,000 bytes, and the edges.
describe("parseRange", () => {
  it.each([
    ["bytes=0-499", { start: 0, end: 499 }],
    ["bytes=500-999", { start: 500, end: 999 }],
    ["bytes=-500", { start: 9500, end: 9999 }],
    ["bytes=9500-", { start: 9500, end: 9999 }],
    ["bytes=0-0", { start: 0, end: 0 }],
    ["bytes=-1", { start: 9999, end: 9999 }],
    ["bytes=9000-20000", { start: 9000, end: 9999 }], // clipped to the file
    ["bytes=-20000", { start: 0, end: 9999 }],
    [" bytes=1-2 ", { start: 1, end: 2 }],
  ])("%s is %o", (header, range) => expect(parseRange(header, 10_000)).toEqual(range));

  it.each([["bytes=10000-"], ["bytes=10000-10005"], ["bytes=-0"]])("%s is unsatisfiable (416)", (header) => expect(parseRange(header, 10_000)).toBe("unsatisfiable"));

  it.each([[null], [""], ["bytes=-"], ["bytes=5-4"], ["items=0-1"], ["bytes=0-1,5-6"], ["bytes=a-b"], ["bytes=1.5-2"]])("%s asks for the whole file", (header) =>
    expect(parseRange(header, 10_000)).toBeNull(),
  );

  it("has nothing to offer in an empty file", () => {
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=-5", 0)).toBe("unsatisfiable");
  });

  it("handles offsets past 4 GiB exactly", () => {
    const size = 50 * 1024 ** 3;
    expect(parseRange(`bytes=${size - 10}-`, size)).toEqual({ start: size - 10, end: size - 1 });
  });
});

describe("conditional requests", () => {
  const etag = '"abc"';
  it("If-None-Match names the current version: a list, a weak tag, or *", () => {
    expect(matchesNoneMatch('"abc"', etag)).toBe(true);
    expect(matchesNoneMatch('"x", W/"abc"', etag)).toBe(true);
    expect(matchesNoneMatch("*", etag)).toBe(true);
    expect(matchesNoneMatch('"abcd"', etag)).toBe(false);
    expect(matchesNoneMatch(null, etag)).toBe(false);
  });
  it("If-Range keeps a range only for the same strong tag", () => {
    expect(rangeStillValid(null, etag)).toBe(true);
    expect(rangeStillValid('"abc"', etag)).toBe(true);
    expect(rangeStillValid('W/"abc"', etag)).toBe(false);
    expect(rangeStillValid("Fri, 27 Nov 2026 10:00:00 GMT", etag)).toBe(false);
  });
});
