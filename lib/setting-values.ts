import { describeAccess, formatUtc, metricTitle, significant } from "./format";

/** The settings' names as the review and the log say them. */
export const SETTING_NAMES: Record<string, string> = {
  title: "Title",
  description: "Description",
  rules: "Rules",
  metric: "Metric",
  startsAt: "Start",
  endsAt: "Deadline",
  dailySubmissionLimit: "Daily cap",
  maxTeamSize: "Largest team",
  displayPrecision: "Decimals shown",
  holdoutCap: "Holdout answers over all teams",
  access: "Who may take part",
  lateSubmissions: "Late submissions",
  maxQueries: "m (submissions per team the guarantee covers)",
  sigma: "σ",
  threshold: "T",
  budget: "B₀ for new teams",
};

/** A setting's value in words: a metric by its title and range, the access rules as a sentence, dates in UTC. */
export function settingValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "(none)";
  if (field === "metric" && typeof value === "object") {
    const { name, params } = value as { name: string; params?: { lo?: number; hi?: number; pMin?: number } };
    const range = params?.lo !== undefined && params.hi !== undefined ? ` (labels ${params.lo} to ${params.hi})` : params?.pMin !== undefined ? ` (p ≥ ${params.pMin})` : "";
    return `${metricTitle(name)}${range}`;
  }
  // The log keeps access rules as they were stored: a competition that never set them holds {}.
  if (field === "access" && typeof value === "object") return describeAccess({ requireVerifiedEmail: false, allowedEmailDomains: [], approval: false, ...value });
  if (typeof value === "number") return significant(value);
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value)) return `${formatUtc(value)} UTC`;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Two versions of a text cut to about `width` characters each around where they differ, so that a
 * change in the middle of a long description shows (cutting both at the same prefix hid it).
 */
export function excerptsAroundChange(before: string, after: string, width = 60): [string, string] {
  if (before.length <= width && after.length <= width) return [before, after];
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  // A third of the window before the first difference, the rest from there on.
  const from = Math.max(0, start - Math.floor(width / 3));
  const cut = (text: string) => `${from > 0 ? "…" : ""}${text.slice(from, from + width)}${from + width < text.length ? "…" : ""}`;
  return [cut(before), cut(after)];
}

/** The settings written freely, which a change cuts around the difference; every other value is a sentence said whole (an access rule cut short hides the domain that changed). */
const FREE_TEXT = ["title", "description", "rules"];

/** One change as "Name: before → after", in words; a free text cut around the difference. */
export function describeChange(change: { field: string; before: unknown; after: unknown }): { name: string; before: string; after: string } {
  const whole: [string, string] = [settingValue(change.field, change.before), settingValue(change.field, change.after)];
  const [before, after] = FREE_TEXT.includes(change.field) ? excerptsAroundChange(...whole) : whole;
  return { name: SETTING_NAMES[change.field] ?? change.field, before, after };
}
