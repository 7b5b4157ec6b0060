import { z } from "zod";

/** Why a text was refused: PostgreSQL's text holds no NUL (U+0000), and no person types one. */
export const NUL_MESSAGE = "contains the NUL character (U+0000), which no text may hold";

/** Whether `value` holds a NUL character. */
export function hasNul(value: string): boolean {
  return value.includes("\u0000");
}

/**
 * A text field: a string without NUL. Every string the app takes from a request is one (ESLint keeps
 * `z.string()` out of lib/validation), so a NUL anywhere is a 422 naming its field, never a 500
 * from the database.
 */
export function text() {
  return z.string().regex(/^[^\u0000]*$/, { message: NUL_MESSAGE });
}
