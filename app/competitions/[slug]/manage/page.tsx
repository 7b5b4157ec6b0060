import Link from "../../../_components/link";
import { signInProviders } from "@/lib/server/accounts/auth";
import { listAttachments } from "@/lib/server/competitions/attachments";
import { correlationOf, metricOf } from "@/lib/server/competitions/competitions";
import { accessOf } from "@/lib/server/competitions/access";
import { listSandbox } from "@/lib/server/scoring/sandbox";
import { listChanges } from "@/lib/server/competitions/settings";
import { getSolutionSummary, loadSolution } from "@/lib/server/competitions/solutions";
import { metricTitle, significant } from "@/lib/format";
import { LocalTime } from "../../../_components/local-time";
import { ChangeLog } from "../../../_components/manage/change-log";
import { CorrelationSummary } from "../../../_components/manage/correlation-summary";
import { Section } from "../../../_components/section";
import { AccessSettings } from "../../../_components/manage/access-settings";
import { type SandboxLine, SandboxPanel } from "../../../_components/manage/sandbox-panel";
import { SettingsEditor } from "../../../_components/manage/settings-editor";
import type { MetricChoice } from "../../../_components/metric-field";
import { Attachments } from "../../../_components/manage/attachments";
import { CorrelationEditor } from "../../../_components/manage/correlation-editor";
import { Lifecycle } from "../../../_components/manage/lifecycle";
import { ManageHeader } from "../../../_components/manage/manage-header";
import { MovedAnchors } from "../../../_components/manage/moved-anchors";
import { MechanismPanel } from "../../../_components/manage/mechanism-panel";
import { SolutionUpload } from "../../../_components/manage/solution-upload";
import { LINK } from "../../../_components/tones";
import { getCorrelationSummary, getCurrentPlan } from "@/lib/server/competitions/plans";
import { publishChecklist } from "@/lib/server/competitions/publish";
import { loadManaged, manageMetadata, OPERATIONS_SECTIONS } from "./organizer";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => manageMetadata(params, "");

const n4 = (x: number | null | undefined) => significant(x);

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

/**
 * The manage page's setup: what the organizers configure before publishing and adjust while the
 * competition runs (its settings, solution, data files, correlation model, mechanism, sandbox,
 * access rules, and the log of those changes). What is operated while it runs (submissions,
 * requests, bans, announcements, webhooks, organizers) is on ./operations; each page reads its own
 * sections only, so a save refreshes those.
 */
export default async function ManagePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { competition } = await loadManaged(slug, "");
  const [solutionSummary, solution, summary, plan, attachments, changes, sandbox, checklist] = await Promise.all([
    getSolutionSummary(competition.id),
    loadSolution(competition.id),
    getCorrelationSummary(competition),
    getCurrentPlan(competition),
    listAttachments(competition.id),
    listChanges(competition),
    listSandbox(competition),
    competition.status === "draft" ? publishChecklist(competition) : null,
  ]);
  const locked = competition.status !== "draft";
  const stored = (competition.mechanism ?? {}) as Record<string, unknown>;
  const initial = Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, String(v)]));

  return (
    <div className="space-y-6">
      <MovedAnchors to={`/competitions/${slug}/manage/operations`} anchors={OPERATIONS_SECTIONS} />
      <ManageHeader
        competition={competition}
        sections={[...(checklist ? ["publish"] : []), "settings", "solution", "data", "correlation", "mechanism", "sandbox", "access", "changes"]}
      />

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
        description="Who may take part. Every team's overfitting budget assumes one person per account: verified addresses, allowed domains, a sign-in through your organization's provider and approval make extra accounts harder. Editable after publishing."
      >
        <AccessSettings slug={slug} access={accessOf(competition)} providers={signInProviders()} />
        <p className="text-sm text-slate-600">
          The requests to take part and the bans are on the{" "}
          <Link href={`/competitions/${slug}/manage/operations#registrations`} className={LINK}>
            operations page
          </Link>
          .
        </p>
      </Section>

      <Section id="changes" title="Change log" description="Every change of the settings: who, when, before → after.">
        <ChangeLog changes={changes} />
      </Section>
    </div>
  );
}
