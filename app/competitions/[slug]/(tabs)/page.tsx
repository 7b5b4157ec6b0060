import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { listAttachments } from "@/lib/server/competitions/attachments";
import { getVisibleCompetition, toPublicDetails, metricOf, isOrganizer } from "@/lib/server/competitions/competitions";
import { AppError } from "@/lib/server/platform/errors";
import { formatDate, metricTitle, significant } from "../../_components/format";
import { Markdown } from "../../_components/markdown";
import { StatusBadge } from "../../_components/status-badge";
import { MySubmissions } from "../../_components/compete/my-submissions";
import { SubmitPanel } from "../../_components/compete/submit-panel";
import { TeamPanel } from "../../_components/compete/team-panel";
import { listMySubmissions } from "@/lib/server/scoring/team-submissions";
import { accessOf, myRegistration } from "@/lib/server/competitions/access";
import { ApiForm } from "../../_components/api-form";
import { Countdown } from "../../_components/view/countdown";
import { getMyTeam } from "@/lib/server/teams/teams";
import { displayHalfWidth } from "@/lib/server/boards/leaderboard";
import { getCurrentPlan } from "@/lib/server/competitions/plans";
import { closedForEntries } from "@/lib/server/competitions/lifecycle";
import { Section } from "../../_components/section";

export const metadata: Metadata = { title: "Competition" };

export default async function CompetitionPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const viewer = await getSessionUser();
  let competition;
  try {
    competition = await getVisibleCompetition(viewer, slug);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
  const organizer = await isOrganizer(viewer, competition.id);
  const now = new Date();
  const open = closedForEntries(competition, now) === null;
  const late = competition.status === "closed" && competition.lateSubmissions;
  const [files, team, mine, plan, registration] = await Promise.all([
    listAttachments(competition.id),
    viewer && competition.status !== "draft" ? getMyTeam(viewer, slug) : null,
    viewer && competition.status !== "draft" ? listMySubmissions(viewer, slug) : null,
    getCurrentPlan(competition),
    viewer ? myRegistration(viewer, competition.id) : null,
  ]);
  const access = accessOf(competition);
  const rulesOfEntry = [
    access.requireVerifiedEmail && "verified email addresses only",
    access.allowedEmailDomains.length > 0 && `addresses at ${access.allowedEmailDomains.join(", ")} only`,
    access.approval && "people the organizers approved",
  ].filter(Boolean);
  const n4 = (x: number) => significant(x, 3);
  const details = toPublicDetails(competition);
  const metric = metricOf(competition);
  // σ, T and the ± live in [0, 1] per-row means; beside scores they are shown in the metric's units.
  const units = (x: number | null) => (x === null ? "—" : n4(metric.toDisplay(x)));
  const halfWidth = await displayHalfWidth(competition, metric);
  return (
    <article className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="flex items-center gap-3 text-2xl font-semibold tracking-tight">
            {competition.title} <StatusBadge status={competition.status} />
          </h1>
          <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
            <div className="flex gap-1">
              <dt>Metric:</dt>
              <dd className="font-medium text-slate-800">
                {metricTitle(competition.metric)} ({details.metric.direction} is better)
              </dd>
            </div>
            {competition.startsAt && (
              <div className="flex gap-1">
                <dt>Opens:</dt>
                <dd>{formatDate(competition.startsAt)}</dd>
              </div>
            )}
            <div className="flex gap-1">
              <dt>{competition.status === "closed" ? "Closed:" : "Closes:"}</dt>
              <dd>
                {formatDate(competition.endsAt)}{" "}
                {competition.status === "published" && (
                  <span className="text-slate-500">
                    (<Countdown until={competition.endsAt.toISOString()} />)
                  </span>
                )}
              </dd>
            </div>
          </dl>
        </div>
        <div className="flex gap-2">
          {competition.status !== "draft" && (
            <Link href={`/competitions/${slug}/leaderboard`} className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">
              {competition.status === "closed" ? "Final standings" : "Leaderboard"}
            </Link>
          )}
          {organizer && (
            <Link href={`/competitions/${slug}/manage`} className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100">
              Manage
            </Link>
          )}
        </div>
      </header>
      {plan && competition.status !== "draft" && (
        <section aria-labelledby="how" className="rounded-xl border border-indigo-100 bg-indigo-50/60 p-6 text-sm leading-relaxed">
          <h2 id="how" className="mb-2 text-lg font-semibold text-slate-900">
            How this leaderboard works
          </h2>
          <p>
            Every submission is scored on a hidden <strong>holdout</strong> as well as on the public rows. If the two scores agree (within a noisy threshold of about{" "}
            {units(plan.threshold)}), you see your public score and spend nothing. If they disagree — the sign that a model is fitting the leaderboard rather than the problem — you
            see the holdout score with a little noise added (±{units(halfWidth)}, 95 %), and your team spends one unit of its <strong>overfitting budget</strong>.
          </p>
          <p className="mt-2">
            Each team has <strong>{plan.budget}</strong> such holdout answers and at most <strong>{details.mechanism?.maxQueries ?? plan.guarantee.maxQueries}</strong> submissions
            in all. When they are spent, submissions are still accepted but no more scores are released. This is what keeps the scores here honest: no team can learn enough about
            the holdout to overfit it.
          </p>
          <p className="mt-2">
            <strong>The leaderboard shows a fresh measurement, not your luckiest answer.</strong> When an answer becomes your team&apos;s best, the server scores that submission on
            the holdout once more with new noise and shows that value, ±{units(halfWidth)} (95 %). The best of several noisy answers sits above the truth (the winner&apos;s curse);
            a fresh measurement is as likely below it as above. Teams whose scores lie within each other&apos;s ± are statistically tied: the leaderboard marks them with ≈.
          </p>
          <p className="mt-2">
            The promise holds <strong>per independent team</strong>: one person with several accounts holds several budgets on the same holdout.{" "}
            {details.holdout.cap !== null
              ? `To bound what all teams together learn, this competition releases at most ${details.holdout.cap} holdout answers in total (${details.holdout.answersReleased} so far).`
              : `${details.holdout.answersReleased} holdout answers have been released so far, over all teams.`}
          </p>
          <p className="mt-2 text-slate-700">
            In numbers ({metricTitle(competition.metric).toLowerCase()} units): noise σ = {units(plan.sigma)}, threshold T = {units(plan.threshold)}; a team&apos;s whole budget
            costs ε<sub>DP</sub> = {n4(plan.epsDp)}, which under the organizer&apos;s model of how the holdout rows are correlated is ε<sub>BDP</sub> = {n4(plan.epsBdp)} (Bayesian
            differential privacy). {plan.guarantee.explanation}
          </p>
        </section>
      )}
      <Section id="overview" title="Overview">
        <Markdown>{competition.description || "_No description yet._"}</Markdown>
      </Section>
      {competition.rules && (
        <Section id="rules" title="Rules">
          <Markdown>{competition.rules}</Markdown>
        </Section>
      )}
      {competition.status !== "draft" && (
        <Section id="take-part" title={team ? "Your team" : "Take part"}>
          {rulesOfEntry.length > 0 && (
            <p className="text-sm text-slate-600" data-testid="access-rules">
              This competition admits {rulesOfEntry.join("; ")}.
            </p>
          )}
          {viewer && !team && access.approval && open && registration !== "approved" && (
            <div data-testid="registration">
              {registration ? (
                <p className="text-sm">
                  Your request to take part is <strong>{registration}</strong>.
                </p>
              ) : (
                <ApiForm
                  method="POST"
                  path={`/api/v1/competitions/${slug}/registrations`}
                  fields={[]}
                  submitLabel="Ask to take part"
                  success="Your request was sent to the organizers; we will mail you their answer."
                />
              )}
            </div>
          )}
          {viewer ? (
            <TeamPanel slug={slug} team={team} open={open} />
          ) : (
            <p className="text-sm">
              <Link href={`/signin?callbackUrl=/competitions/${slug}`} className="font-medium text-indigo-700 hover:underline">
                Sign in
              </Link>{" "}
              to form a team and submit.
            </p>
          )}
          {team && (open || late) && (
            <div className="border-t border-slate-100 pt-4">
              <h3 className="mb-2 font-semibold">{late ? "Late submission" : "Submit predictions"}</h3>
              {late && (
                <p className="mb-2 text-sm text-slate-600">
                  The competition has closed. Late submissions get their exact holdout score on the late board and never change the final standings.
                </p>
              )}
              <SubmitPanel slug={slug} precision={competition.displayPrecision} />
            </div>
          )}
        </Section>
      )}
      {team && mine && (
        <Section id="my-submissions" title="My submissions">
          <MySubmissions slug={slug} submissions={mine.submissions} finalIds={mine.finalIds} precision={competition.displayPrecision} locked={competition.status === "closed"} />
        </Section>
      )}
      {files.length > 0 && (
        <Section id="data" title="Data">
          {!team && !organizer && <p className="mb-2 text-sm text-slate-600">Create or join a team (accepting the rules) to download the data.</p>}
          <ul className="text-sm">
            {files.map((f) => (
              <li key={f.id}>
                <a href={`/api/v1/competitions/${slug}/attachments/${f.id}`} className="font-medium text-indigo-700 hover:underline">
                  {f.filename}
                </a>{" "}
                <span className="text-slate-500">({(f.size / 1024).toFixed(1)} KiB)</span>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </article>
  );
}
