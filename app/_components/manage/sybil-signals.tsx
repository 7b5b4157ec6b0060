import { formatDate } from "@/lib/format";
import type { SybilSignals as Signals } from "@/lib/responses";

/** The manage page's list of signs that one person plays several teams. */
export function SybilSignals({ signals }: { signals: Signals }) {
  if (signals.sameAddress.length === 0 && signals.nearIdentical.length === 0) return <p className="text-sm text-slate-500">Nothing to look into.</p>;
  return (
    <div className="space-y-3 text-sm" data-testid="sybil-signals">
      {signals.sameAddress.map((group, i) => (
        <p key={`a${i}`}>
          <strong>{group.accounts.length} accounts created from one address within a day</strong>, in different teams:{" "}
          {group.accounts.map((a) => `${a.name} (team ${a.team}, ${formatDate(new Date(a.createdAt))})`).join("; ")}.
        </p>
      ))}
      {signals.nearIdentical.map((pair) => (
        <p key={pair.teams.join(":")}>
          <strong>Near-identical submissions</strong>: teams {pair.teams[0]} and {pair.teams[1]} agree on {(pair.agreement * 100).toFixed(0)} % of the sampled holdout rows.
        </p>
      ))}
    </div>
  );
}
