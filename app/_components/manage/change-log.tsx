import { formatUtc, significant } from "../format";
import type { ChangeLogEntry } from "@/lib/responses";

const FIELD_NAMES: Record<string, string> = {
  endsAt: "deadline",
  dailySubmissionLimit: "daily cap",
  lateSubmissions: "late submissions",
  maxQueries: "m",
  budget: "B₀ for new teams",
};

function logged(value: unknown): string {
  if (typeof value === "number") return significant(value);
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value)) return formatUtc(value);
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text || "(empty)";
}

/** Every recorded change of the settings, newest first: who, when, each field before → after. */
export function ChangeLog({ changes }: { changes: ChangeLogEntry[] }) {
  return changes.length === 0 ? (
    <p className="text-sm text-slate-500">No changes yet.</p>
  ) : (
    <ol className="space-y-2 text-sm" data-testid="change-log">
      {changes.map((entry, i) => (
        <li key={i}>
          <span className="text-slate-500">
            {formatUtc(entry.at)} UTC, {entry.by}:
          </span>{" "}
          {entry.changes.map((c) => `${FIELD_NAMES[c.field] ?? c.field} ${logged(c.before)} → ${logged(c.after)}`).join("; ")}
        </li>
      ))}
    </ol>
  );
}
