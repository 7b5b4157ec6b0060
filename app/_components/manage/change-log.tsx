import { LocalTime } from "../local-time";
import type { ChangeLogEntry } from "@/lib/responses";
import { describeChange } from "@/lib/setting-values";

/** Every recorded change of the settings, newest first: who, when, each field before → after, in words. */
export function ChangeLog({ changes }: { changes: ChangeLogEntry[] }) {
  return changes.length === 0 ? (
    <p className="text-sm text-slate-600">No changes yet.</p>
  ) : (
    <ol className="space-y-2 text-sm" data-testid="change-log">
      {changes.map((entry, i) => (
        <li key={i} className="break-words">
          <span className="text-slate-600">
            <LocalTime at={entry.at} />, {entry.by}:
          </span>{" "}
          {entry.changes
            .map(describeChange)
            .map((c) => `${c.name} ${c.before} → ${c.after}`)
            .join("; ")}
        </li>
      ))}
    </ol>
  );
}
