import Link from "../../../_components/link";
import { toPublicDetails, metricOf } from "@/lib/server/competitions/competitions";
import { displayHalfWidth } from "@/lib/server/boards/leaderboard";
import { getCurrentPlan } from "@/lib/server/competitions/plans";
import { accessOf } from "@/lib/server/competitions/access";
import { BudgetBar } from "../../../_components/budget-bar";
import { describeAccess, formatDate, metricTitle, significant } from "../../../_components/format";
import { Markdown } from "../../../_components/markdown";
import { Section } from "../../../_components/section";
import { LINK } from "../../../_components/tones";
import { loadCompetition, tabMetadata } from "./competition";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => tabMetadata(params);

/** The Overview tab: the organizers' description, how the leaderboard works, and the competition at a glance. */
export default async function OverviewPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { viewer, competition, organizer, team, open } = await loadCompetition(slug);
  const plan = await getCurrentPlan(competition);
  const n4 = (x: number) => significant(x, 3);
  const details = toPublicDetails(competition);
  const metric = metricOf(competition);
  // σ, T and the ± live in [0, 1] per-row means; beside scores they are shown in the metric's units.
  const units = (x: number | null) => (x === null ? "—" : n4(metric.toDisplay(x)));
  const halfWidth = await displayHalfWidth(competition, metric);
  const base = `/competitions/${slug}`;
  // What the viewer can do next, in a sentence and a link.
  const next: { text: string; link?: { href: string; label: string } } = organizer
    ? { text: "You organize this competition; organizers do not take part.", link: { href: `${base}/manage`, label: "Manage it" } }
    : team
      ? { text: "", link: { href: `${base}/submissions`, label: open ? "Submit predictions" : "My submissions" } }
      : competition.status === "closed"
        ? { text: "This competition has closed.", link: { href: `${base}/leaderboard`, label: "Final standings" } }
        : open
          ? {
              text: viewer ? "Create or join a team to accept the rules, download the data and submit." : "Sign in, then create or join a team to take part.",
              link: { href: `${base}/team`, label: viewer ? "Join competition" : "Sign in to join" },
            }
          : { text: competition.status === "draft" ? "A draft: only its organizers see it." : `Teams can form from ${formatDate(competition.startsAt!)}.` };
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0 space-y-6">
        <Section id="overview" title="Overview">
          <Markdown>{competition.description || "_No description yet._"}</Markdown>
        </Section>
        {plan && competition.status !== "draft" && (
          <section aria-labelledby="how" className="rounded-xl border border-indigo-100 bg-indigo-50/60 p-4 text-sm leading-relaxed sm:p-6">
            <h2 id="how" className="mb-2 text-lg font-semibold text-slate-900">
              How this leaderboard works
            </h2>
            <p>
              Every submission is scored on a hidden <strong>holdout</strong> as well as on the public rows. If the two scores agree (within a noisy threshold of about{" "}
              {units(plan.threshold)}), you see your public score and spend nothing. If they disagree — the sign that a model is fitting the leaderboard rather than the problem —
              you see the holdout score with a little noise added (±{units(halfWidth)}, 95 %), and your team spends one unit of its <strong>overfitting budget</strong>.
            </p>
            <p className="mt-2">
              Each team has <strong>{plan.budget}</strong> such holdout answers and at most <strong>{details.mechanism?.maxQueries ?? plan.guarantee.maxQueries}</strong>{" "}
              submissions in all. When they are spent, submissions are still accepted but no more scores are released. This is what keeps the scores here honest: no team can learn
              enough about the holdout to overfit it.
            </p>
            <p className="mt-2">
              <strong>The leaderboard shows a fresh measurement, not your luckiest answer.</strong> When an answer becomes your team&apos;s best, the server scores that submission
              on the holdout once more with new noise and shows that value, ±{units(halfWidth)} (95 %). The best of several noisy answers sits above the truth (the winner&apos;s
              curse); a fresh measurement is as likely below it as above. Teams whose scores lie within each other&apos;s ± are statistically tied: the leaderboard marks them with
              ≈.
            </p>
            <p className="mt-2">
              The promise holds <strong>per independent team</strong>: one person with several accounts holds several budgets on the same holdout.{" "}
              {details.holdout.cap !== null
                ? `To bound what all teams together learn, this competition releases at most ${details.holdout.cap} holdout answers in total (${details.holdout.answersReleased} so far).`
                : `${details.holdout.answersReleased} holdout answers have been released so far, over all teams.`}
            </p>
            <p className="mt-2 text-slate-700">
              In numbers ({metricTitle(competition.metric).toLowerCase()} units): noise σ = {units(plan.sigma)}, threshold T = {units(plan.threshold)}; a team&apos;s whole budget
              costs ε<sub>DP</sub> = {n4(plan.epsDp)}, which under the organizer&apos;s model of how the holdout rows are correlated is ε<sub>BDP</sub> = {n4(plan.epsBdp)}{" "}
              (Bayesian differential privacy). {plan.guarantee.explanation}
            </p>
          </section>
        )}
      </div>
      <aside className="space-y-6" aria-label="At a glance">
        <Section id="take-part" title={team ? "Your team" : "Take part"}>
          {team && (
            <div className="space-y-2 text-sm">
              <p className="font-medium">{team.name}</p>
              <BudgetBar remaining={team.budget.remaining} initial={team.budget.initial} labelled />
            </div>
          )}
          <p className="text-sm">
            {next.text}{" "}
            {next.link && (
              <Link href={next.link.href} className={LINK}>
                {next.link.label}
              </Link>
            )}
          </p>
        </Section>
        <Section id="facts" title="At a glance">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
            <dt className="text-slate-600">Metric</dt>
            <dd>
              {metricTitle(competition.metric)}, {details.metric.direction} is better
            </dd>
            <dt className="text-slate-600">Teams</dt>
            <dd>up to {competition.maxTeamSize} people</dd>
            <dt className="text-slate-600">Submissions</dt>
            <dd>{competition.dailySubmissionLimit} per team per UTC day</dd>
            <dt className="text-slate-600">Who may join</dt>
            <dd>{describeAccess(accessOf(competition))}</dd>
            <dt className="text-slate-600">Late entries</dt>
            <dd>{competition.lateSubmissions ? "taken after the close, on a separate board" : "not taken"}</dd>
          </dl>
        </Section>
      </aside>
    </div>
  );
}
