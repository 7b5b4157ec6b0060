// Where someone was when they signed up (a competition's Team tab, the new-competition form), kept
// in this browser so that the verification link, opened later from the mail, can lead back there.
const KEY = "quiltboard:after-verification";

/** Remembers a path on this site (already checked with sameSitePath) to return to after verifying. */
export function rememberReturn(path: string): void {
  localStorage.setItem(KEY, path);
}

/** The remembered path, if any; `forget` removes it (once the address is verified). */
export function returnPath(forget = false): string | null {
  const path = localStorage.getItem(KEY);
  if (forget) localStorage.removeItem(KEY);
  return path;
}
