import { METRIC_CATALOGUE } from "@/lib/metrics/types";

const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** "21 Nov 2026" in UTC, the platform's day boundary. */
export function formatDate(iso: string | Date): string {
  return DATE.format(new Date(iso));
}

const UTC_TIME = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "21 Nov 2026, 14:05" in UTC. */
export function formatUtc(iso: string | Date): string {
  return UTC_TIME.format(new Date(iso));
}

export function metricTitle(name: string): string {
  return Object.hasOwn(METRIC_CATALOGUE, name) ? METRIC_CATALOGUE[name as keyof typeof METRIC_CATALOGUE].title : name;
}

/** A number to `digits` significant figures ("—" for none, "∞" for infinity). */
export function significant(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined) return "—";
  return Number.isFinite(x) ? Number(x.toPrecision(digits)).toString() : "∞";
}

/** Who may take part, in words (a competition's access rules: lib/validation/competitions.ts accessSchema). */
export function describeAccess(access: {
  requireVerifiedEmail: boolean;
  allowedEmailDomains: string[];
  approval: boolean;
  identity?: { provider: string; name?: string; domains: string[] };
}): string {
  const rules = [
    access.requireVerifiedEmail && "verified email addresses only",
    access.allowedEmailDomains.length > 0 && `addresses at ${access.allowedEmailDomains.join(", ")} only`,
    access.identity && `people signed in through ${describeIdentityRule(access.identity)}`,
    access.approval && "people the organizers approved",
  ].filter(Boolean);
  return rules.length ? rules.join("; ") : "anyone with an account";
}

/** An identity rule in words: "Lab SSO" or "Lab SSO with an address at lab.example". */
export function describeIdentityRule(rule: { provider: string; name?: string; domains: string[] }): string {
  return `${rule.name ?? rule.provider}${rule.domains.length ? ` with an address at ${rule.domains.join(", ")}` : ""}`;
}

/** A file's size: "812 bytes", "48.3 KiB", "12.1 MiB", "2.00 GiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/**
 * A message as a sentence: a capital first letter and a full stop. The API's messages start in
 * lower case, to read well after "quiltboard: " in a terminal or inside a longer line.
 */
export function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
