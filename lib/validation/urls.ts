/**
 * `value` when it is a path on this site, else `fallback`: used for the redirect after sign-in, so
 * that a link to /signin?callbackUrl=… can never send a user to another site. Refuses absolute and
 * protocol-relative URLs ("//host", and "/\host", which browsers read the same way) and anything
 * that resolves to another origin.
 */
export function sameSitePath(value: string | undefined, fallback: string): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || /[\u0000-\u001f\s]/.test(value)) return fallback;
  const base = "http://quiltboard.invalid";
  try {
    const url = new URL(value, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : fallback;
  } catch {
    return fallback;
  }
}
