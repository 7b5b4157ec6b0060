import type { CorrelationSummary as Summary } from "@/lib/calibration/resolve";
import { BarChart } from "../charts";
import { significant as n4 } from "@/lib/format";

/** What the correlation model makes of the holdout: n, n_eff and, for a Markov model, the chain (P, π, λ, the gap). */
export function CorrelationSummary({ summary }: { summary: Summary }) {
  const chain = summary.chain;
  return (
    <div className="space-y-3 rounded-md bg-slate-50 p-4 text-sm" data-testid="correlation-summary">
      <p>
        Holdout rows n = {summary.n.toLocaleString("en")}; effective sample size n<sub>eff</sub> = {n4(summary.nEff)}.
      </p>
      {chain && (
        <>
          <p>
            {chain.chains.toLocaleString("en")} independent chain{chain.chains === 1 ? "" : "s"} (longest {chain.longestChain}) over {chain.states} states
            {chain.stateNames ? ` (${chain.stateNames.join(", ")})` : ""}; {chain.reversible ? "reversible" : "not reversible (Lemma 4 does not apply)"}
            {chain.spectralGap !== null ? `, spectral gap ${n4(chain.spectralGap)}` : ""}, λ = {n4(chain.lambda)}.
          </p>
          <table className="text-left font-mono text-xs">
            <caption className="mb-1 text-left font-sans text-sm font-medium">Transition matrix P and stationary distribution π</caption>
            <thead>
              <tr>
                <th scope="col" className="pr-3">
                  from \ to
                </th>
                {(chain.stateNames ?? chain.stationary.map((_, i) => String(i + 1))).map((s) => (
                  <th key={s} scope="col" className="pr-3">
                    {s}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {(summary.model.kind === "markov" ? summary.model.transition : []).map((row, i) => (
                <tr key={i}>
                  <th scope="row" className="pr-3">
                    {chain.stateNames?.[i] ?? i + 1}
                  </th>
                  {row.map((p, j) => (
                    <td key={j} className="pr-3">
                      {p.toFixed(3)}
                    </td>
                  ))}
                </tr>
              ))}
              <tr>
                <th scope="row" className="pr-3">
                  π
                </th>
                {chain.stationary.map((p, j) => (
                  <td key={j} className="pr-3">
                    {p.toFixed(3)}
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </>
      )}
      {summary.groupSizes && (
        <BarChart
          title="Groups by size (holdout rows per group)"
          unit="groups"
          bars={Object.entries(summary.groupSizes).map(([size, count]) => ({ label: `${size} row${size === "1" ? "" : "s"}`, value: count }))}
        />
      )}
    </div>
  );
}
