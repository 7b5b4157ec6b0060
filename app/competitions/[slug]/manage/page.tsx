import type { Metadata } from "next";
import Link from "../../../_components/link";
import { notFound, redirect } from "next/navigation";
import { getSessionUser } from "@/lib/server/accounts/auth";
import { listAttachments } from "@/lib/server/competitions/attachments";
import { holdoutHealth } from "@/lib/server/scoring/audit";
import { correlationOf, metricOf, requireOrganizer } from "@/lib/server/competitions/competitions";
import { listOrganizers } from "@/lib/server/competitions/organizers";
import { accessOf, listBans, listRegistrations } from "@/lib/server/competitions/access";
import { listAllSubmissions } from "@/lib/server/boards/console";
import { AppError } from "@/lib/server/platform/errors";
import { listSandbox } from "@/lib/server/scoring/sandbox";
import { listChanges } from "@/lib/server/competitions/settings";
import { listAnnouncements } from "@/lib/server/competitions/announcements";
import { Announcements } from "../../../_components/announcements";
import { AnnouncementForm } from "../../../_components/manage/announcement-form";
import { listWebhooks } from "@/lib/server/competitions/webhooks";
import { Webhooks } from "../../../_components/manage/webhooks";
import { getSolutionSummary, loadSolution } from "@/lib/server/competitions/solutions";
import { metricTitle, significant } from "@/lib/format";
import { LocalTime } from "../../../_components/local-time";
import { ChangeLog } from "../../../_components/manage/change-log";
import { CorrelationSummary } from "../../../_components/manage/correlation-summary";
import { HoldoutHealth } from "../../../_components/manage/holdout-health";
import { Section } from "../../../_components/section";
import { AccessSettings } from "../../../_components/manage/access-settings";
import { Bans } from "../../../_components/manage/bans";
import { type SandboxLine, SandboxPanel } from "../../../_components/manage/sandbox-panel";
import { SettingsEditor } from "../../../_components/manage/settings-editor";
import type { MetricChoice } from "../../../_components/metric-field";
import { Attachments } from "../../../_components/manage/attachments";
import { SybilSignals } from "../../../_components/manage/sybil-signals";
import { CorrelationEditor } from "../../../_components/manage/correlation-editor";
import { Lifecycle } from "../../../_components/manage/lifecycle";
import { Organizers } from "../../../_components/manage/organizers";
import { MechanismPanel } from "../../../_components/manage/mechanism-panel";
import { SolutionUpload } from "../../../_components/manage/solution-upload";
import { type ConsoleLine, SubmissionsConsole } from "../../../_components/manage/submissions-console";
import { StatusBadge } from "../../../_components/status-badge";
import { getCorrelationSummary, getCurrentPlan } from "@/lib/server/competitions/plans";
import { publishChecklist } from "@/lib/server/competitions/publish";

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  const user = await getSessionUser();
  const competition = user && (await requireOrganizer(user, (await params).slug).catch(() => null));
  return { title: competition ? `Manage · ${competition.title}` : "Manage competition" };
}

const n4 = (x: number | null | undefined) => significant(x);

/** The console's rows, formatted here on the server. */
function consoleLines({ submissions, displayPrecision, direction }: Awaited<ReturnType<typeof listAllSubmissions>>): ConsoleLine[] {
  const f = (x: number | null) => (x === null ? "—" : x.toFixed(displayPrecision));
  const better = direction === "higher" ? -1 : 1;
  const order = new Map([...submissions].sort((a, b) => better * (a.holdoutScore - b.holdoutScore)).map((s, i) => [s.id, i]));
  return submissions.map((s) => ({
    id: s.id,
    time: s.createdAt,
    team: s.team,
    teamId: s.teamId,
    user: s.user,
    kind: s.kind,
    answer: f(s.answer),
    scores: [f(s.publicScore), f(s.holdoutScore)],
    rank: order.get(s.id)!,
    note: s.description ?? "",
    flags: s.flags,
    disqualified: s.flags.includes("team disqualified"),
  }));
}

/** The sandbox tests, formatted here on the server (exact scores never reach client code as numbers). */
function sandboxLines(tests: Awaited<ReturnType<typeof listSandbox>>, displayPrecision: number): SandboxLine[] {
  return tests.map((t) => ({
    id: t.id,
    time: t.createdAt,
    by: t.by,
    note: t.description ?? "",
    filename: t.filename ?? "submission.csv",
    scores: [t.publicScore.toFixed(displayPrecision), t.holdoutScore.toFixed(displayPrecision)],
    baseline: t.baseline && { name: t.baseline.name, score: t.baseline.score.toFixed(displayPrecision) },
  }));
}

export default async function ManagePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await getSessionUser();
  if (!user) redirect(`/signin?callbackUrl=/competitions/${slug}/manage`);
  let competition;
  try {
    competition = await requireOrganizer(user, slug);
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 403)) notFound();
    throw error;
  }
  const [solutionSummary, solution, summary, plan, attachments, organizers, health, registrations, all, changes, sandbox, bans, checklist, announcements, webhooks] =
    await Promise.all([
      getSolutionSummary(competition.id),
      loadSolution(competition.id),
      getCorrelationSummary(competition),
      getCurrentPlan(competition),
      listAttachments(competition.id),
      listOrganizers(competition, user),
      holdoutHealth(user, slug),
      listRegistrations(competition),
      listAllSubmissions(user, slug),
      listChanges(competition),
      listSandbox(competition),
      listBans(competition),
      competition.status === "draft" ? publishChecklist(competition) : null,
      listAnnouncements(competition.id),
      listWebhooks(competition),
    ]);
  const locked = competition.status !== "draft";
  const stored = (competition.mechanism ?? {}) as Record<string, unknown>;
  const initial = Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, String(v)]));

  return (
    <div className="space-y-6">
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

      <nav aria-label="Sections" className="flex flex-wrap gap-3 text-sm">
        {[
          ...(checklist ? ["publish"] : []),
          "settings",
          "solution",
          "data",
          "correlation",
          "mechanism",
          "sandbox",
          "access",
          ...(locked ? ["announcements"] : []),
          "webhooks",
          "signals",
          "submissions",
          "health",
          "changes",
          "organizers",
        ].map((s) => (
          <a key={s} href={`#${s}`} className="rounded-full bg-white px-3 py-1 capitalize ring-1 ring-slate-200 hover:bg-slate-100">
            {s}
          </a>
        ))}
      </nav>

      {checklist && (
        <Section id="publish" title="Publishing" description="What publishing needs. Once it is all in place, Publish opens the competition to competitors.">
          <Lifecycle slug={slug} status={competition.status} checklist={checklist} />
        </Section>
      )}

      <Section
        id="settings"
        title="Settings"
        description="Wording, deadline, daily cap and late submissions, also after publishing; while a draft, the metric, start, team size and decimals too. A change that moves m (the submissions per team the guarantee covers) shows the recomputed plan before it is saved."
      >
        <SettingsEditor
          slug={slug}
          status={competition.status}
          current={{
            title: competition.title,
            description: competition.description,
            rules: competition.rules,
            endsAt: competition.endsAt.toISOString(),
            dailySubmissionLimit: competition.dailySubmissionLimit,
            lateSubmissions: competition.lateSubmissions,
            metric: { name: competition.metric, params: competition.metricParams as MetricChoice["params"] },
            startsAt: competition.startsAt?.toISOString() ?? null,
            maxTeamSize: competition.maxTeamSize,
            displayPrecision: competition.displayPrecision,
          }}
        />
      </Section>

      <Section id="solution" title="Solution" description="The labels of every test row and which split it belongs to. Competitors never see it.">
        {solutionSummary ? (
          <p className="text-sm" data-testid="solution-summary">
            <strong>{solutionSummary.rows.toLocaleString("en")}</strong> rows: {solutionSummary.public.toLocaleString("en")} public, {solutionSummary.holdout.toLocaleString("en")}{" "}
            holdout
            {solution?.groups ? `, ${solution.groups.names.length.toLocaleString("en")} groups` : ""}
            {solution?.states ? `, states ${solution.states.names.join(", ")}` : ""}. Uploaded <LocalTime at={solutionSummary.uploadedAt.toISOString()} />.
          </p>
        ) : (
          <p className="text-sm text-amber-700">No solution yet.</p>
        )}
        <SolutionUpload slug={slug} locked={locked} />
      </Section>

      <Section id="data" title="Public data files" description="Training data and a sample submission for competitors to download.">
        <Attachments slug={slug} files={attachments} />
      </Section>

      <Section id="correlation" title="Correlation model" description="How the holdout rows depend on each other decides how much noise protects them.">
        <CorrelationEditor slug={slug} current={correlationOf(competition)} hasGroups={Boolean(solution?.groups)} hasStates={Boolean(solution?.states)} locked={locked} />
        {summary && <CorrelationSummary summary={summary} />}
      </Section>

      <Section
        id="mechanism"
        title="Mechanism"
        description="Guarantee mode derives σ, T and the budget from a tolerance (Theorem 2); practical mode sets them directly and tells you what holds."
      >
        {/* Keyed by what the plan depends on: a new solution or correlation model plans afresh. */}
        {solution ? (
          <MechanismPanel
            key={`${solutionSummary?.sha256}:${JSON.stringify(competition.correlation)}`}
            slug={slug}
            initial={initial}
            locked={locked}
            metric={{ title: metricTitle(competition.metric), display: metricOf(competition).display }}
          />
        ) : (
          <p className="text-sm text-amber-700">Upload the solution first: the mechanism is planned for its holdout rows.</p>
        )}
        {plan && locked && (
          <p className="text-sm">
            Published with σ = {n4(competition.sigma)}, T = {n4(competition.threshold)}, budget {competition.budget}.
          </p>
        )}
      </Section>

      <Section
        id="sandbox"
        title="Sandbox and baselines"
        description="Test a file against the key: full validation and exact scores, for organizers only; nothing is spent or ranked. A test can be shown on the leaderboard as a baseline, with one noisy holdout value like a team's best."
      >
        {solution ? (
          <SandboxPanel slug={slug} lines={sandboxLines(sandbox, competition.displayPrecision)} canShowBaselines={competition.sigma !== null} />
        ) : (
          <p className="text-sm text-amber-700">Upload the solution first.</p>
        )}
      </Section>

      <Section
        id="access"
        title="Access"
        description="Who may take part. Every team's overfitting budget assumes one person per account: verified addresses, allowed domains and approval make extra accounts harder. Editable after publishing."
      >
        <AccessSettings slug={slug} access={accessOf(competition)} registrations={registrations} />
        <h3 className="pt-2 font-medium">Banned users</h3>
        <Bans slug={slug} bans={bans} />
      </Section>

      {locked && (
        <Section
          id="announcements"
          title="Announcements"
          description="Shown on the Overview and mailed to every participant who did not turn announcements off. Changes of the deadline, the daily cap and access, the day before the deadline and the close are announced by themselves."
        >
          <AnnouncementForm slug={slug} />
          {announcements.length > 0 && <Announcements announcements={announcements} />}
        </Section>
      )}

      <Section
        id="webhooks"
        title="Webhooks"
        description="Your systems hear of this competition's events: each is POSTed to your URL, signed as Standard Webhooks with the secret shown when you add it, and retried until your server takes it. No event carries a score."
      >
        <Webhooks slug={slug} webhooks={webhooks} />
      </Section>

      <Section
        id="signals"
        title="Signs of one person behind several teams"
        description="Several accounts give several budgets on one holdout. These are signals to look into, not proof."
      >
        <SybilSignals signals={all.signals} />
      </Section>

      <Section
        id="submissions"
        title="Submissions"
        description="Every submission with its raw public and holdout scores, which competitors never see. Disqualifying a team takes it off the live and final boards; its budget is not restored."
      >
        <SubmissionsConsole slug={slug} rows={consoleLines(all)} />
      </Section>

      <Section id="health" title="Holdout health" description="The privacy each team has spent on the holdout (ε_DP of its holdout answers) and in total, by basic composition.">
        <HoldoutHealth health={health} />
      </Section>

      <Section id="changes" title="Change log" description="Every change of the settings: who, when, before → after.">
        <ChangeLog changes={changes} />
      </Section>

      <Section
        id="organizers"
        title="Organizers"
        description="Organizers see every raw score, so they cannot compete here. An invited address becomes an organizer when it accepts the mailed link."
      >
        <Organizers slug={slug} view={organizers} />
      </Section>
    </div>
  );
}
