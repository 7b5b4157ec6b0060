import { z } from "zod";
import "./messages";
import { text } from "./text";

/** At most this many characters (code points) of a file name are kept. */
const NAME_CHARACTERS = 120;

/**
 * A safe file name: no path, no control characters or quotes, at most 120 characters (a longer one
 * loses the end of its stem, never a character's half nor its extension); null when nothing is left.
 */
export function safeFilename(name: string): string | null {
  const base = name
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f"]/g, "")
    .trim();
  if (!base || base === "." || base === "..") return null;
  const characters = Array.from(base);
  if (characters.length <= NAME_CHARACTERS) return base;
  const dot = characters.lastIndexOf(".");
  const extension = dot > 0 && characters.length - dot <= 16 ? characters.slice(dot) : [];
  return [...characters.slice(0, NAME_CHARACTERS - extension.length), ...extension].join("");
}

/**
 * Whether `value` is a media type as HTTP writes one (RFC 9110 §8.3.1: type "/" subtype, then
 * `; name=value` parameters, the value a token or a quoted string), in printable ASCII: what a
 * Content-Type header can carry back to a downloader.
 */
export function isMediaType(value: string): boolean {
  return /^[!#$%&'*+.^`|~\w-]+\/[!#$%&'*+.^`|~\w-]+(?:[ \t]*;[ \t]*[!#$%&'*+.^`|~\w-]+=(?:[!#$%&'*+.^`|~\w-]+|"(?:[\x20\x21\x23-\x5b\x5d-\x7e\t]|\\[\x20-\x7e\t])*"))*$/.test(
    value,
  );
}

/** The media type a file is served with: the one it was sent with when HTTP can carry it, else application/octet-stream. */
export function servedMediaType(value: string | null | undefined): string {
  return value && isMediaType(value) ? value : "application/octet-stream";
}

/** A submission's note (multipart field or ?description=): at most 500 characters, empty is none. */
export const noteSchema = z.object({
  description: text()
    .trim()
    .max(500, { message: "the description is limited to 500 characters" })
    .transform((s) => (s === "" ? null : s)),
});

const MiB = 1024 * 1024;
/** A part of a resumable upload: 5 MiB (S3's least, but for the last part) to 5 GiB (S3's most); 8 MiB unless the client asks. */
export const PART_BYTES = { least: 5 * MiB, most: 5 * 1024 * MiB, default: 8 * MiB } as const;
/** S3 joins at most 10,000 parts: a larger file gets larger parts. */
export const MAX_PARTS = 10_000;

/** POST …/attachments/uploads: the file a resumable upload will bring (docs/api.md#resumable-uploads). */
export const startUploadSchema = z.object({
  name: text().min(1).max(1000),
  size: z.int().min(1).max(Number.MAX_SAFE_INTEGER),
  contentType: text().max(200).refine(isMediaType, { message: "the content type is a media type such as text/csv or application/zip (printable ASCII)" }).optional(),
  sha256: text()
    .regex(/^[0-9a-fA-F]{64}$/, { message: "the SHA-256 is 64 hexadecimal digits" })
    .transform((s) => s.toLowerCase())
    .optional(),
  partBytes: z.int().min(PART_BYTES.least).max(PART_BYTES.most).optional(),
});
export type StartUpload = z.infer<typeof startUploadSchema>;
