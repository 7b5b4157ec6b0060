import { formatDate } from "@/lib/format";
import type { SybilSignals as Signals } from "@/lib/responses";

/** The manage page's list of signs that one person plays several teams. */
export function SybilSignals({ signals }: { signals: Signals }) {
  if ([signals.sameAddress, signals.samePattern, signals.sharedAddress, signals.nearIdentical].every((s) => s.length === 0))
    return <p className="text-sm text-slate-500">Nothing to look into.</p>;
  return (
    <div className="space-y-3 text-sm" data-testid="sybil-signals">
      {signals.sameAddress.map((group, i) => (
        <p key={`a${i}`}>
          <strong>{group.accounts.length} accounts created from one address within a day</strong>, in different teams:{" "}
          {group.accounts.map((a) => `${a.name} (team ${a.team}, ${formatDate(new Date(a.createdAt))})`).join("; ")}.
        </p>
      ))}
      {signals.samePattern.map((group) => (
        <p key={`p${group.provider}:${group.base}`} data-testid="pattern-signal">
          <strong>
            {group.accounts.length} {group.provider === null ? "email addresses" : `${group.provider} identities`} named like “{group.base}”
          </strong>
          , in {new Set(group.accounts.map((a) => a.team)).size} teams: {group.accounts.map((a) => `${a.handle} (${a.name}, team ${a.team})`).join("; ")}.
        </p>
      ))}
      {signals.sharedAddress.map((group) => (
        <p key={`s${group.address}`} data-testid="shared-address-signal">
          <strong>One verified address behind {group.accounts.length} accounts</strong>, {group.address}:{" "}
          {group.accounts.map((a) => `${a.name} (team ${a.team}, through ${a.provider ?? "the account's own address"})`).join("; ")}.
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
