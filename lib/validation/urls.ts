/**
 * `value` when it is a path on this site, else `fallback`: used for the redirect after sign-in, so
 * that a link to /signin?callbackUrl=… can never send a user to another site. Refuses absolute and
 * protocol-relative URLs ("//host", and "/\host", which browsers read the same way) and anything
 * that resolves to another origin. The check runs on the path as given and again on the path it
 * normalises to: "/.//host" and "/a/..//host" are paths here, but normalise to "//host", which a
 * browser then reads as another site.
 */
export function sameSitePath(value: string | undefined, fallback: string): string {
  if (!value || !isLocalPath(value) || /[\u0000-\u001f\s]/.test(value)) return fallback;
  const base = "http://quiltboard.invalid";
  try {
    const url = new URL(value, base);
    return url.origin === base && isLocalPath(url.pathname) ? `${url.pathname}${url.search}${url.hash}` : fallback;
  } catch {
    return fallback;
  }
}

function isLocalPath(path: string): boolean {
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
}
