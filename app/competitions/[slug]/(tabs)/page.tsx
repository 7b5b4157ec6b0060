import Link from "../../../_components/link";
import { toPublicDetails, metricOf } from "@/lib/server/competitions/competitions";
import { scoreUncertainty } from "@/lib/server/boards/leaderboard";
import { getCurrentPlan, getGuaranteeSummary } from "@/lib/server/competitions/plans";
import { accessOf } from "@/lib/server/competitions/access";
import { listAnnouncements } from "@/lib/server/competitions/announcements";
import { Announcements } from "../../../_components/announcements";
import { BudgetBar } from "../../../_components/budget-bar";
import { describeAccess, formatDate, metricTitle } from "@/lib/format";
import { Markdown } from "../../../_components/markdown";
import { Section } from "../../../_components/section";
import { LINK } from "../../../_components/tones";
import { HowItWorks } from "../../../_components/view/how-it-works";
import { loadCompetition, tabMetadata } from "./competition";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => tabMetadata(params);

/** The Overview tab: the organizers' description, how the leaderboard works, and the competition at a glance. */
export default async function OverviewPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { viewer, competition, organizer, team, open } = await loadCompetition(slug);
  const plan = await getCurrentPlan(competition);
  const details = toPublicDetails(competition);
  const metric = metricOf(competition);
  const [uncertainty, guarantee, announcements] = await Promise.all([scoreUncertainty(competition, metric), getGuaranteeSummary(competition), listAnnouncements(competition.id)]);
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
        {announcements.length > 0 && (
          <Section id="announcements" title="Announcements">
            <Announcements announcements={announcements} />
          </Section>
        )}
        {plan && guarantee && competition.status !== "draft" && (
          <HowItWorks summary={guarantee} plan={plan} uncertainty={uncertainty} units={metricTitle(competition.metric).toLowerCase()} display={metric.display} />
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
        {details.commitment && (
          <Section id="commitment" title="Commitment">
            <div className="space-y-2 text-sm" data-testid="commitment">
              <p>
                Publishing fixed the solution and the mechanism&apos;s secret: their SHA-256 hashes, published {formatDate(details.commitment.publishedAt)}, say nothing about the
                labels, and let anyone check them once revealed.
              </p>
              <dl className="space-y-1">
                <dt className="text-slate-600">Solution file</dt>
                <dd className="font-mono text-xs break-all">{details.commitment.solution}</dd>
                <dt className="text-slate-600">Secret with its settings</dt>
                <dd className="font-mono text-xs break-all">{details.commitment.secret}</dd>
              </dl>
              {details.revealedAt ? (
                <p>
                  Revealed {formatDate(details.revealedAt)}:{" "}
                  <a href={`/api/v1/competitions/${slug}/reveal`} className={LINK}>
                    the secret
                  </a>
                  ,{" "}
                  <a href={`/api/v1/competitions/${slug}/reveal/solution`} className={LINK}>
                    the solution
                  </a>{" "}
                  and{" "}
                  <a href={`/api/v1/competitions/${slug}/reveal/transcript`} className={LINK}>
                    every answer
                  </a>
                  . Check them with <code>quiltboard verify {slug}</code> or the Python client&apos;s <code>verify()</code>.
                </p>
              ) : (
                competition.status === "closed" && <p className="text-slate-600">The organizers have not revealed them (the default keeps them private).</p>
              )}
            </div>
          </Section>
        )}
      </aside>
    </div>
  );
}
