import { z } from "zod";
import "./messages";
import { text } from "./text";

/** A safe file name: no path, no control characters or quotes, at most 120 characters; null when nothing is left. */
export function safeFilename(name: string): string | null {
  const base = name
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f"]/g, "")
    .trim();
  return !base || base === "." || base === ".." ? null : base.slice(0, 120);
}

/** A submission's note (multipart field or ?description=): at most 500 characters, empty is none. */
export const noteSchema = z.object({
  description: text()
    .trim()
    .max(500, { message: "the description is limited to 500 characters" })
    .transform((s) => (s === "" ? null : s)),
});
