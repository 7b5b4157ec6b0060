/** Binary units of a size as the bench flags write it. */
const UNITS: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/**
 * A size as a flag gives it: a whole number of bytes, or a number with K, M, G or T (binary: 256M is
 * 256 MiB; "MB", "MiB" and "GiB" are read the same), e.g. "2G", "256M", "1.5GiB"; an Error naming the
 * text otherwise.
 */
export function parseBytes(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  const bytes = match ? Math.round(Number(match[1]) * UNITS[match[2].toLowerCase()]) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new Error(`"${text}" is not a size: write bytes, or a number with K, M, G or T (binary units), e.g. 256M or 2G`);
  return bytes;
}

/** `bytes` in the largest binary unit that keeps it at 1 or more: "2 GiB", "256 MiB", "1.5 KiB", "10 bytes". */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ["TiB", 1024 ** 4],
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(2))} ${unit}`;
  }
  return `${bytes} bytes`;
}
