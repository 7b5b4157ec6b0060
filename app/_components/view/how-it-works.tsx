import type { Plan } from "@/lib/calibration/planner";
import type { GuaranteeSummary, ScoreUncertainty } from "@/lib/responses";
import { type Display, displayedHalfWidth } from "@/lib/metrics/types";
import { significant } from "../format";

/**
 * "How this leaderboard works" on a published competition's page (docs/mechanism.md §2.6, §2.7):
 * what the shown score is and the bound Thresholdout puts on it, in plain words and the metric's
 * units; each guarantee in its own words (a team acting on its own answers, and anyone however many
 * accounts they hold); ε, the proofs and the settings behind a "details" fold.
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
  const settings = display.root
    ? `noise σ = ${n3(plan.sigma)}, threshold T = ${n3(plan.threshold)} on the mean of the scaled squared error in [0, 1], which ranks and is checked (the board shows its root)`
    : `noise σ = ${n3(displayedHalfWidth(display, 0, plan.sigma))}, threshold T = ${n3(displayedHalfWidth(display, 0, plan.threshold))}`;
  const { team, competition } = summary;
  return (
    <section aria-labelledby="how-heading" className="space-y-2 rounded-xl border border-indigo-100 bg-indigo-50/60 p-6 text-sm leading-relaxed" data-testid="how-it-works">
      <h2 id="how-heading" className="text-lg font-semibold text-slate-900">
        How this leaderboard works
      </h2>
      <p>
        <strong>The leaderboard shows each team&apos;s best public score, checked against the hidden holdout.</strong> Every submission is scored on the public rows and on hidden
        holdout rows. When the two agree, the public score counts and nothing is spent: a checked public score is at most about <strong>{n3(summary.publicBound)}</strong> ({units})
        above the team&apos;s holdout score (95 %). When they disagree, the team gets its holdout score with noise added (±{n3(uncertainty?.holdout ?? null)}, 95 %) and uses one of
        its <strong>{team.budget}</strong> holdout checks; a team with no checked public score is shown its latest holdout score, marked as such. You always see your own public
        score; once your checks are used up it is shown as &ldquo;not checked&rdquo; and stays off the leaderboard.
      </p>
      <p>
        Each score shows as many decimals as its uncertainty supports (± the sampling error of the public rows, {n3(uncertainty?.public ?? null)} at 95 %). An honest model is
        expected to be checked on the holdout about {n3(summary.honestCharges)} times over its {team.maxQueries} submissions.
      </p>
      <ul className="list-disc space-y-1 pl-5" data-testid="guarantees">
        <li>
          <strong>For a team acting on its own answers:</strong>{" "}
          {team.holds && team.tolerance !== null
            ? `every score it is shown is within ±${n3(team.tolerance)} (${units}) of its true score, with probability at least ${n3(1 - team.beta)}, for up to ${team.maxQueries} submissions.`
            : "no formal guarantee at these settings."}
        </li>
        <li>
          <strong>For anyone, whatever they read here and however many accounts they hold:</strong>{" "}
          {competition.holds && competition.tolerance !== null && competition.cap !== null
            ? `±${n3(competition.tolerance)} (${units}), with at most ${competition.cap} holdout answers in all (${competition.answersReleased} spent so far), for up to ${competition.teams} teams.`
            : `no competition-wide guarantee at this size${competition.cap === null ? " (there is no cap on holdout answers over all teams)" : ""}; ${competition.answersReleased} holdout answers spent so far.`}
        </li>
      </ul>
      <details className="text-slate-700">
        <summary className="cursor-pointer font-medium text-slate-900">Details: the settings and the proofs</summary>
        <div className="mt-2 space-y-2">
          <p>
            Thresholdout (Zhao 2017, Algorithm 1): {settings}, {plan.budget} holdout checks and {plan.guarantee.maxQueries} scored submissions per team. A team&apos;s whole budget
            costs ε<sub>DP</sub> = {n3(plan.epsDp)}, which under the organizer&apos;s model of how the holdout rows are correlated is ε<sub>BDP</sub> = {n3(plan.epsBdp)} (Bayesian
            differential privacy).
          </p>
          <p>
            Two proofs bound the scores, and the tighter is used: Theorem 2 of Zhao 2017 (through differential privacy) and a count of the answers a team can see (Dwork et al.
            2015, description length)
            {team.proof ? `; here ${team.proof === "bdp" ? "Theorem 2" : "the count"} is the tighter` : ""}. {plan.guarantee.explanation} {plan.competition.explanation}
          </p>
        </div>
      </details>
    </section>
  );
}
