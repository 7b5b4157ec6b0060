import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getSessionUser } from "@/lib/server/auth";
import { listAttachments } from "@/lib/server/attachments";
import { getVisibleCompetition } from "@/lib/server/competitions";
import { AppError } from "@/lib/server/errors";
import { formatDate, metricTitle } from "../../_components/format";
import { Markdown } from "../../_components/markdown";
import { StatusBadge } from "../../_components/status-badge";
import { MySubmissions } from "../../_components/compete/my-submissions";
import { SubmitPanel } from "../../_components/compete/submit-panel";
import { TeamPanel } from "../../_components/compete/team-panel";
import { listMySubmissions } from "@/lib/server/submissions";
import { getMyTeam } from "@/lib/server/teams";

export const metadata: Metadata = { title: "Competition" };

export default async function CompetitionPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const viewer = await getSessionUser();
  let visible;
  try {
    visible = await getVisibleCompetition(viewer, slug);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) notFound();
    throw error;
  }
  const { competition, organizer } = visible;
  const now = new Date();
  const open = competition.status === "published" && now < competition.endsAt && (!competition.startsAt || now >= competition.startsAt);
  const [files, team, mine] = await Promise.all([
    listAttachments(competition.id),
    viewer && competition.status !== "draft" ? getMyTeam(viewer, slug) : null,
    viewer && competition.status !== "draft" ? listMySubmissions(viewer, slug) : null,
  ]);
  return (
    <article className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="flex items-center gap-3 text-2xl font-semibold tracking-tight">
            {competition.title} <StatusBadge status={competition.status} />
          </h1>
          <p className="text-slate-600">
            {metricTitle(competition.metric)} · closes {formatDate(competition.endsAt)}
          </p>
        </div>
        {organizer && (
          <Link href={`/competitions/${slug}/manage`} className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100">
            Manage
          </Link>
        )}
      </header>
      <section aria-labelledby="overview" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="overview" className="mb-3 text-lg font-semibold">
          Overview
        </h2>
        <Markdown>{competition.description || "_No description yet._"}</Markdown>
      </section>
      {competition.rules && (
        <section aria-labelledby="rules" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="rules" className="mb-3 text-lg font-semibold">
            Rules
          </h2>
          <Markdown>{competition.rules}</Markdown>
        </section>
      )}
      {competition.status !== "draft" && (
        <section aria-labelledby="take-part" className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="take-part" className="text-lg font-semibold">
            {team ? "Your team" : "Take part"}
          </h2>
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
          {team && open && (
            <div className="border-t border-slate-100 pt-4">
              <h3 className="mb-2 font-semibold">Submit predictions</h3>
              <SubmitPanel slug={slug} precision={competition.displayPrecision} />
            </div>
          )}
        </section>
      )}
      {team && mine && (
        <section aria-labelledby="my-submissions" className="space-y-3 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="my-submissions" className="text-lg font-semibold">
            My submissions
          </h2>
          <MySubmissions slug={slug} submissions={mine.submissions} finalIds={mine.finalIds} precision={competition.displayPrecision} locked={competition.status === "closed"} />
        </section>
      )}
      {files.length > 0 && (
        <section aria-labelledby="data" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="data" className="mb-3 text-lg font-semibold">
            Data
          </h2>
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
        </section>
      )}
    </article>
  );
}
