import { significant as n4 } from "../format";
import { CELL, DataTable } from "../data-table";
import type { HealthReport } from "@/lib/responses";

/**
 * The privacy each team has spent on the holdout and in total (lib/server/scoring/audit.ts
 * holdoutHealth), with what each team's figure counts: its holdout answers, the re-measurements of
 * its leaderboard score and a threshold left open by its last public answer (lib/mechanism/accounting.ts).
 */
export function HoldoutHealth({ health }: { health: HealthReport }) {
  return health.teams.length === 0 ? (
    <p className="text-sm text-slate-600">No teams yet.</p>
  ) : (
    <div className="space-y-3 text-sm" data-testid="health">
      <p>
        Total ε<sub>DP</sub> spent: <strong>{n4(health.total)}</strong> ({n4(health.perHoldoutAnswer)} per holdout answer); {health.exhausted} of {health.teams.length} teams have
        exhausted their budget{health.baselines ? `; the total counts ${health.baselines} baseline${health.baselines === 1 ? "" : "s"} shown on the leaderboard` : ""}.
      </p>
      <p className="text-slate-600">
        A team&apos;s ε<sub>DP</sub> counts more than its holdout answers: each re-measurement of its leaderboard score reads the holdout too, and the noisy threshold it is using
        counts once it has answered a query (an open threshold). So one holdout answer can stand beside more than {n4(health.perHoldoutAnswer)} spent.
      </p>
      <DataTable
        caption="Privacy spent per team, with what it counts"
        columns={[
          { label: "Team" },
          { label: "Holdout answers", numeric: true },
          { label: "Re-measurements", numeric: true },
          { label: "Open threshold" },
          { label: "ε_DP spent", numeric: true },
          { label: "Budget" },
        ]}
      >
        {health.teams.map((t) => (
          <tr key={t.name}>
            <td className={`${CELL.list}`}>{t.name}</td>
            <td className={`${CELL.list} text-right tabular-nums`}>{t.holdoutAnswers}</td>
            <td className={`${CELL.list} text-right tabular-nums`}>{t.remeasures}</td>
            <td className={`${CELL.list}`}>{t.openEpoch ? "yes" : "no"}</td>
            <td className={`${CELL.list} text-right tabular-nums`}>{n4(t.epsDp)}</td>
            <td className={`${CELL.list}`}>{t.exhausted ? <span className="font-medium text-red-700">exhausted</span> : `${t.remaining} of ${t.initial} left`}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
