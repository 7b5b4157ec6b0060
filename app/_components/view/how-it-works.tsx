import type { Plan } from "@/lib/calibration/planner";
import type { GuaranteeSummary, ScoreUncertainty } from "@/lib/responses";
import { type Display, displayedHalfWidth } from "@/lib/metrics/types";
import { CELL, DataTable } from "../data-table";
import { significant } from "@/lib/format";

/**
 * "How this leaderboard works" on a published competition's page (docs/mechanism.md §2.6–§2.8), in
 * the words a Kaggle user reads: what the shown score is, the ± the platform proves for every score
 * (a table by holdout checks used), each guarantee in its own words (a team acting on its own answers,
 * and anyone however many accounts they hold), and that they cover the live competition. The
 * symbols (σ, T, B₀, ε, β) appear only in the "details" fold, each with its meaning.
 */
export function HowItWorks({
  summary,
  plan,
  uncertainty,
  units,
  display,
}: {
  summary: GuaranteeSummary;
  plan: Plan;
  uncertainty: ScoreUncertainty | null;
  /** the metric's units, e.g. "accuracy" */
  units: string;
  /** how the metric shows its [0, 1] values */
  display: Display;
}) {
  const n3 = (x: number | null) => (x === null ? "—" : significant(x, 3));
  const inUnits = (x: number) => n3(displayedHalfWidth(display, 0, x));
  const { team, competition } = summary;
  const confidence = `${n3(100 * (1 - team.beta))} %`;
  return (
    <section aria-labelledby="how-heading" className="space-y-3 rounded-xl border border-indigo-100 bg-indigo-50/60 p-6 text-sm leading-relaxed" data-testid="how-it-works">
      <h2 id="how-heading" className="text-lg font-semibold text-slate-900">
        How this leaderboard works
      </h2>
      <p>
        <strong>The leaderboard shows each team&apos;s best public score, checked against the hidden holdout.</strong> Every submission is scored on the public rows and on hidden
        holdout rows. When the two agree, the public score counts and nothing is spent. When they disagree, the team gets its holdout score with a little noise added (about ±
        {n3(uncertainty?.holdout ?? null)}) and uses one of its <strong>{team.budget}</strong> holdout checks; a team with no checked public score is shown its latest holdout
        score, marked as such. You always see your own public score; once your checks are used up it is shown as &ldquo;not checked&rdquo; and stays off the leaderboard. An honest
        model is expected to be checked about {n3(summary.honestCharges)} times over its {team.maxQueries} submissions.
      </p>
      <div className="space-y-2" data-testid="guarantees">
        <p>
          <strong>What the ± means.</strong>{" "}
          {team.byChecks.length > 0
            ? `Every score carries a ± the platform can prove: with probability at least ${confidence}, every score a team is shown lies within its ± of the score the same submission would get on unlimited new data from the same source, however the team chose what to submit (as long as it acts on its own answers). Each holdout check a team uses widens its later ± a little:`
            : "No proof covers this competition's metric under its model of how the holdout rows are related, so scores carry no ±: read them as Kaggle's, which can be overfit."}
        </p>
        {team.byChecks.length > 0 && (
          <div className="rounded-md bg-white px-3 py-2">
            <DataTable
              caption="The ± of every score a team is shown, by the holdout checks it has used"
              showCaption
              columns={[{ label: "Holdout checks used" }, { label: "Every later score within", numeric: true }]}
            >
              {team.byChecks.map((row) => (
                <tr key={row.checks} data-testid="promise-row">
                  <td className={CELL.list}>{row.checks === team.budget ? `${row.checks} (all)` : row.checks}</td>
                  <td className={`${CELL.list} text-right font-mono tabular-nums`}>
                    ± {n3(row.bound)} ({units})
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
        )}
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>For a team acting on its own answers:</strong>{" "}
            {team.holds && team.tolerance !== null
              ? `whatever happens, every score it is shown is within ±${n3(team.tolerance)} (${units}) of its true score, with probability at least ${confidence}, for up to ${team.maxQueries} submissions.`
              : "no formal guarantee at these settings."}
          </li>
          <li>
            <strong>For anyone, whatever they read here and however many accounts they hold:</strong>{" "}
            {competition.holds && competition.tolerance !== null && competition.cap !== null
              ? `±${n3(competition.tolerance)} (${units}), with at most ${competition.cap} holdout answers in all (${competition.answersReleased} spent so far), for the ${competition.teams} teams taking part.`
              : `no competition-wide guarantee at this size${competition.cap === null ? " (there is no cap on holdout answers over all teams)" : ""}; ${competition.answersReleased} holdout answers spent so far.`}
          </li>
        </ul>
        <p className="text-slate-600">
          These promises cover the live competition. After the close, the final standings and late submissions are exact holdout scores, which the holdout no longer protects.
        </p>
      </div>
      <details className="text-slate-700">
        <summary className="cursor-pointer font-medium text-slate-900">Details: the settings and the proofs</summary>
        <div className="mt-2 space-y-2">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt>σ = {display.root ? n3(plan.sigma) : inUnits(plan.sigma)}</dt>
            <dd>the noise scale: the threshold gets noise of this size, a holdout answer four times as much</dd>
            <dt>T = {display.root ? n3(plan.threshold) : inUnits(plan.threshold)}</dt>
            <dd>the threshold: a public score counts when it is within about T of the holdout score</dd>
            <dt>B₀ = {plan.budget}</dt>
            <dd>holdout checks per team; m = {plan.guarantee.maxQueries} scored submissions per team</dd>
            <dt>β = {n3(team.beta)}</dt>
            <dd>the chance that a promise above fails</dd>
          </dl>
          {display.root && <p>σ and T apply to the mean of the scaled squared error in [0, 1], which ranks and is checked; the board shows its root.</p>}
          <p>
            Thresholdout (Zhao 2017, Algorithm 1). A team&apos;s whole budget costs ε<sub>DP</sub> = {n3(plan.epsDp)} of differential privacy, which under the organizer&apos;s
            model of how the holdout rows are related is ε<sub>BDP</sub> = {n3(plan.epsBdp)} (Bayesian differential privacy).
            {plan.scores && ` The ± rests on ${plan.scores.concentration.inequality}.`}
          </p>
          <p>
            Two proofs bound the worst case, and the tighter is used: Theorem 2 of Zhao 2017 (through differential privacy) and a count of the answers a team can see (Dwork et al.
            2015, description length)
            {team.proof ? `; here ${team.proof === "bdp" ? "Theorem 2" : "the count"} is the tighter` : ""}. {plan.guarantee.explanation} {plan.competition.explanation}
          </p>
        </div>
      </details>
    </section>
  );
}
