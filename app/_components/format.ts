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
