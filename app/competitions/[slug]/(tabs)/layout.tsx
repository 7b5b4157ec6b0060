import Link from "../../../_components/link";
import type { ReactNode } from "react";
import { toPublicDetails } from "@/lib/server/competitions/competitions";
import { metricTitle } from "@/lib/format";
import { LocalTime } from "../../../_components/local-time";
import { StatusBadge } from "../../../_components/status-badge";
import { BUTTON } from "../../../_components/tones";
import { CompetitionTabs, type Tab } from "../../../_components/view/competition-tabs";
import { Countdown } from "../../../_components/view/countdown";
import { loadCompetition } from "./competition";

/**
 * A competition's header (its name, metric and dates, the one thing to do next) above its tabs:
 * Overview, Data, Leaderboard, Rules, and for competitors Team and My submissions. Each tab is a
 * page of its own (app/competitions/[slug]/(tabs)/…); the organizers' page (manage) is not a tab.
 */
export default async function CompetitionLayout({ params, children }: { params: Promise<{ slug: string }>; children: ReactNode }) {
  const { slug } = await params;
  const { viewer, competition, organizer, team, now, open } = await loadCompetition(slug);
  const base = `/competitions/${slug}`;
  const details = toPublicDetails(competition);
  const started = !competition.startsAt || competition.startsAt <= now;
  const competing = !organizer && competition.status !== "draft";
  const tabs: Tab[] = [
    { href: base, label: "Overview" },
    { href: `${base}/data`, label: "Data" },
    ...(competition.status !== "draft" ? [{ href: `${base}/leaderboard`, label: "Leaderboard", within: `${base}/teams/` }] : []),
    { href: `${base}/rules`, label: "Rules" },
    ...(competing
      ? [
          { href: `${base}/team`, label: "Team" },
          { href: `${base}/submissions`, label: "My submissions" },
        ]
      : []),
  ];
  const next = organizer
    ? { href: `${base}/manage`, label: "Manage", look: BUTTON.secondary }
    : open && team
      ? { href: `${base}/submissions`, label: "Submit predictions", look: BUTTON.primary }
      : open && !team
        ? { href: `${base}/team`, label: viewer ? "Join competition" : "Sign in to join", look: BUTTON.primary }
        : null;
  return (
    <article className="space-y-6">
      <header className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 className="flex flex-wrap items-center gap-x-3 gap-y-1 text-2xl font-semibold tracking-tight">
              <span>{competition.title}</span> <StatusBadge status={competition.status} />
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
                  <dt>{started ? "Opened:" : "Opens:"}</dt>
                  <dd>
                    <LocalTime at={competition.startsAt.toISOString()} />
                  </dd>
                </div>
              )}
              {competition.status === "closed" ? (
                <div className="flex gap-1">
                  <dt>Closed:</dt>
                  <dd>
                    <LocalTime at={(competition.closedAt ?? competition.endsAt).toISOString()} />
                  </dd>
                </div>
              ) : (
                <div className="flex gap-1">
                  <dt>Closes:</dt>
                  <dd>
                    <LocalTime at={competition.endsAt.toISOString()} />
                    {competition.status === "published" && (
                      <span className="text-slate-600">
                        {" "}
                        (<Countdown until={competition.endsAt.toISOString()} now={now.toISOString()} />)
                      </span>
                    )}
                  </dd>
                </div>
              )}
            </dl>
          </div>
          {next && (
            <Link href={next.href} className={next.look}>
              {next.label}
            </Link>
          )}
        </div>
        <CompetitionTabs tabs={tabs} />
      </header>
      {children}
    </article>
  );
}
