import { significant as n4 } from "@/lib/format";
import { CELL, DataTable } from "../data-table";
import type { HealthReport } from "@/lib/responses";

/**
 * The privacy each team has spent on the holdout and in total (lib/server/scoring/audit.ts
 * holdoutHealth), with what each team's figure counts: its holdout answers and the threshold epochs
 * left open by public answers (its own and those of teams it absorbed; lib/mechanism/accounting.ts).
 */
export function HoldoutHealth({ health }: { health: HealthReport }) {
  return health.teams.length === 0 ? (
    <p className="text-sm text-slate-600">No teams yet.</p>
  ) : (
    <div className="space-y-3 text-sm" data-testid="health">
      <p>
        Total ε<sub>DP</sub> spent: <strong>{n4(health.total)}</strong>. Each holdout answer costs {n4(health.perHoldoutAnswer)}; a threshold epoch that has answered public scores
        since the team&apos;s last holdout answer has cost 8/9 of that already (it is counted as open); {health.exhausted} of {health.teams.length} teams have exhausted their
        budget.
      </p>
      <p className="text-slate-600">
        A team&apos;s ε<sub>DP</sub> counts more than its holdout answers: the noisy threshold it is using counts once it has answered a query (an open threshold epoch, one per
        stream: a merged team keeps the streams of the teams it absorbed). So a team&apos;s figure can exceed its holdout answers × {n4(health.perHoldoutAnswer)}.
      </p>
      <DataTable
        caption="Privacy spent per team, with what it counts"
        columns={[
          { label: "Team" },
          { label: "Holdout answers", numeric: true },
          { label: "Open threshold epochs", numeric: true },
          { label: "ε_DP spent", numeric: true },
          { label: "Budget" },
        ]}
      >
        {health.teams.map((t) => (
          <tr key={t.name}>
            <td className={`${CELL.list}`}>{t.name}</td>
            <td className={`${CELL.list} text-right tabular-nums`}>{t.holdoutAnswers}</td>
            <td className={`${CELL.list} text-right tabular-nums`}>{t.openEpochs}</td>
            <td className={`${CELL.list} text-right tabular-nums`}>{n4(t.epsDp)}</td>
            <td className={`${CELL.list}`}>{t.exhausted ? <span className="font-medium text-red-700">exhausted</span> : `${t.remaining} of ${t.initial} left`}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
