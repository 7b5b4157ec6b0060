const LF = 10;

/**
 * Strings kept as their UTF-8 bytes one after another, each followed by a line break (which none of
 * them holds; the last one's may be missing, as in the ids of solutions stored before 2026-11-27):
 * string r is `bytes[starts[r], starts[r + 1] - 1)`. A million of them are two typed arrays rather
 * than a million strings, which every full collection of the garbage collector would have to trace
 * while a solution stays in memory for its competition's submissions (submission.ts IdIndex).
 */
export class PackedStrings {
  readonly length: number;
  readonly starts: Int32Array;

  /** @param starts where each string starts, and one past the last one's line break (counted from `bytes` when not given) */
  constructor(
    readonly bytes: Uint8Array,
    starts?: Int32Array,
  ) {
    if (starts) {
      this.starts = starts;
      this.length = starts.length - 1;
      return;
    }
    let count = bytes.length > 0 && bytes[bytes.length - 1] !== LF ? 1 : 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === LF) count++;
    this.length = count;
    this.starts = new Int32Array(count + 1);
    let r = 1;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === LF) this.starts[r++] = i + 1;
    this.starts[count] = bytes[bytes.length - 1] === LF ? bytes.length : bytes.length + 1;
  }

  static fromStrings(strings: string[]): PackedStrings {
    return new PackedStrings(new Uint8Array(Buffer.from(strings.map((s) => `${s}\n`).join(""), "utf8")));
  }

  /** String r. */
  get(r: number): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString("utf8", this.starts[r], this.starts[r + 1] - 1);
  }

  /** Every string, in order (tests, small lists). */
  toArray(): string[] {
    return Array.from({ length: this.length }, (_, r) => this.get(r));
  }

  /** The bytes they take in memory. */
  get byteLength(): number {
    return this.bytes.byteLength + this.starts.byteLength;
  }
}

/** FNV-1a (32 bits) of the bytes `buf[start, end)`: the hash of the tables keyed by a string's bytes. */
export function fnv1a(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return h >>> 0;
}

/**
 * PackedStrings built from byte ranges as a parser meets them, with an open-addressing hash table
 * (FNV-1a) over what it holds: `find` says where a string already is (a duplicate id), `intern`
 * gives each distinct string its index, in the order first met. The arrays double as they fill, so
 * a million strings cost about their bytes plus 16 to 28 bytes each, and no string is made.
 */
export class PackedStringsBuilder {
  private bytes = new Uint8Array(64 * 1024);
  private size = 0;
  private starts = new Int32Array(1024);
  private count = 0;
  private table = new Int32Array(2048); // index + 1, 0 = empty
  private mask = 2047;

  get length(): number {
    return this.count;
  }

  /** The index of the string held in `buf[start, end)`, or −1. */
  find(buf: Uint8Array, start: number, end: number): number {
    for (let h = fnv1a(buf, start, end) & this.mask; ; h = (h + 1) & this.mask) {
      const r = this.table[h] - 1;
      if (r < 0) return -1;
      if (this.equals(r, buf, start, end)) return r;
    }
  }

  /** Adds the string held in `buf[start, end)` (which must hold no line break) whether or not it is there already; its index. */
  add(buf: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (this.size + length + 1 > this.bytes.length) this.bytes = grow(this.bytes, this.size + length + 1);
    if (this.count + 2 > this.starts.length) this.starts = grow(this.starts, this.count + 2);
    if (2 * (this.count + 1) > this.table.length) this.rehash(2 * this.table.length);
    this.bytes.set(buf.subarray(start, end), this.size);
    this.starts[this.count] = this.size;
    this.size += length;
    this.bytes[this.size++] = LF;
    const r = this.count++;
    this.starts[this.count] = this.size;
    this.insert(r, fnv1a(buf, start, end));
    return r;
  }

  /** The index of the string held in `buf[start, end)`, added if it is not there yet. */
  intern(buf: Uint8Array, start: number, end: number): number {
    const r = this.find(buf, start, end);
    return r >= 0 ? r : this.add(buf, start, end);
  }

  /** The strings so far (views of the builder's arrays: add nothing after). */
  build(): PackedStrings {
    return new PackedStrings(this.bytes.subarray(0, this.size), this.starts.subarray(0, this.count + 1));
  }

  private insert(r: number, hash: number): void {
    let h = hash & this.mask;
    while (this.table[h] !== 0) h = (h + 1) & this.mask;
    this.table[h] = r + 1;
  }

  private rehash(slots: number): void {
    this.table = new Int32Array(slots);
    this.mask = slots - 1;
    for (let r = 0; r < this.count; r++) this.insert(r, fnv1a(this.bytes, this.starts[r], this.starts[r + 1] - 1));
  }

  private equals(r: number, buf: Uint8Array, start: number, end: number): boolean {
    const from = this.starts[r];
    const length = this.starts[r + 1] - 1 - from;
    if (length !== end - start) return false;
    const bytes = this.bytes;
    for (let k = 0; k < length; k++) if (bytes[from + k] !== buf[start + k]) return false;
    return true;
  }
}

/** A copy of `array` with room for at least `size` entries (twice as many as before, at least). */
function grow<T extends Uint8Array | Int32Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(size, 2 * array.length));
  bigger.set(array);
  return bigger;
}
