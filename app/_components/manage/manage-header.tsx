import Link from "../link";
import { metricTitle } from "@/lib/format";
import { LocalTime } from "../local-time";
import { StatusBadge } from "../status-badge";
import { CompetitionTabs } from "../view/competition-tabs";
import { Lifecycle } from "./lifecycle";
import type { OrganizedCompetition } from "@/lib/server/competitions/competitions";

/**
 * The top of both manage pages: the competition, its status and deadline, Close or Reveal once
 * published, the two pages as tabs (Setup: what is configured before and while it runs; Operations:
 * what is run), and the page's own sections as links to their anchors.
 */
export function ManageHeader({ competition, sections }: { competition: OrganizedCompetition; sections: string[] }) {
  const { slug } = competition;
  const base = `/competitions/${slug}/manage`;
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm text-slate-500">
            <Link href={`/competitions/${slug}`} className="hover:underline">
              /competitions/{slug}
            </Link>
          </p>
          <h1 className="flex items-center gap-3 text-2xl font-semibold tracking-tight">
            {competition.title} <StatusBadge status={competition.status} />
          </h1>
          <p className="text-slate-600">
            {metricTitle(competition.metric)} · {competition.status === "closed" ? "closed " : "closes "}
            <LocalTime at={(competition.status === "closed" ? (competition.closedAt ?? competition.endsAt) : competition.endsAt).toISOString()} /> ·{" "}
            {competition.dailySubmissionLimit} submissions per team per day
          </p>
        </div>
        {competition.status !== "draft" && <Lifecycle slug={slug} status={competition.status} checklist={null} revealed={competition.revealedAt !== null} />}
      </div>

      <CompetitionTabs
        label="Manage"
        tabs={[
          { href: base, label: "Setup" },
          { href: `${base}/operations`, label: "Operations" },
        ]}
      />

      <nav aria-label="Sections" className="flex flex-wrap gap-3 text-sm">
        {sections.map((s) => (
          <a key={s} href={`#${s}`} className="rounded-full bg-white px-3 py-1 capitalize ring-1 ring-slate-200 hover:bg-slate-100">
            {s}
          </a>
        ))}
      </nav>
    </>
  );
}
