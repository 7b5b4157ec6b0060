import { significant as n4 } from "../format";
import { ColumnHeads } from "../column-heads";
import type { HealthReport } from "@/lib/responses";

/** The privacy each team has spent on the holdout and in total (lib/server/scoring/audit.ts holdoutHealth). */
export function HoldoutHealth({ health }: { health: HealthReport }) {
  return health.teams.length === 0 ? (
    <p className="text-sm text-slate-500">No teams yet.</p>
  ) : (
    <div className="space-y-3 text-sm" data-testid="health">
      <p>
        Total ε<sub>DP</sub> spent: <strong>{n4(health.total)}</strong> ({n4(health.perHoldoutAnswer)} per holdout answer); {health.exhausted} of {health.teams.length} teams have
        exhausted their budget{health.baselines ? `; the total counts ${health.baselines} baseline${health.baselines === 1 ? "" : "s"} shown on the leaderboard` : ""}.
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-left">
          <caption className="sr-only">Privacy spent per team</caption>
          <ColumnHeads
            className="text-slate-500"
            cell="py-1 pr-3"
            columns={[{ label: "Team" }, { label: "Holdout answers", numeric: true }, { label: "ε_DP spent", numeric: true }, { label: "Budget" }]}
          />
          <tbody className="divide-y divide-slate-100">
            {health.teams.map((t) => (
              <tr key={t.name}>
                <td className="py-1 pr-3">{t.name}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{t.holdoutAnswers}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{n4(t.epsDp)}</td>
                <td className="py-1">{t.exhausted ? <span className="font-medium text-red-700">exhausted</span> : `${t.remaining} of ${t.initial} left`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
