import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { getSessionUser } from "@/lib/server/auth";
import { listAttachments } from "@/lib/server/attachments";
import { holdoutHealth } from "@/lib/server/audit";
import { getCorrelationSummary, getCurrentPlan } from "@/lib/server/calibration";
import { listOrganizers, requireOrganizer, metricOf } from "@/lib/server/competitions";
import { accessOf, listBans, listRegistrations } from "@/lib/server/access";
import { listAllSubmissions } from "@/lib/server/console";
import { AppError } from "@/lib/server/errors";
import { listSandbox } from "@/lib/server/sandbox";
import { listChanges } from "@/lib/server/settings";
import { getSolutionSummary, loadSolution } from "@/lib/server/solutions";
import { BarChart } from "../../../_components/charts";
import { formatDate, metricTitle, significant } from "../../../_components/format";
import { AccessSettings } from "../../../_components/manage/access-settings";
import { Bans } from "../../../_components/manage/bans";
import { type SandboxLine, SandboxPanel } from "../../../_components/manage/sandbox-panel";
import { SettingsEditor } from "../../../_components/manage/settings-editor";
import { Attachments } from "../../../_components/manage/attachments";
import { SybilSignals } from "../../../_components/manage/sybil-signals";
import { CorrelationEditor } from "../../../_components/manage/correlation-editor";
import { InviteOrganizer, Lifecycle } from "../../../_components/manage/lifecycle";
import { MechanismPanel } from "../../../_components/manage/mechanism-panel";
import { SolutionUpload } from "../../../_components/manage/solution-upload";
import { type ConsoleLine, SubmissionsConsole } from "../../../_components/manage/submissions-console";
import { StatusBadge } from "../../../_components/status-badge";

export const metadata: Metadata = { title: "Manage competition" };

function Section({ id, title, children, description }: { id: string; title: string; description?: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <div>
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          {title}
        </h2>
        {description && <p className="text-sm text-slate-600">{description}</p>}
      </div>
      {children}
    </section>
  );
}

const n4 = (x: number | null | undefined) => significant(x);

const UTC = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** The console's rows, formatted here on the server. */
function consoleLines({ submissions, displayPrecision, direction }: Awaited<ReturnType<typeof listAllSubmissions>>): ConsoleLine[] {
  const f = (x: number | null) => (x === null ? "—" : x.toFixed(displayPrecision));
  const better = direction === "higher" ? -1 : 1;
  const order = new Map([...submissions].sort((a, b) => better * (a.holdoutScore - b.holdoutScore)).map((s, i) => [s.id, i]));
  return submissions.map((s) => ({
    id: s.id,
    time: UTC.format(new Date(s.createdAt)),
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
    time: UTC.format(new Date(t.createdAt)),
    by: t.by,
    note: t.description ?? "",
    filename: t.filename ?? "submission.csv",
    scores: [t.publicScore.toFixed(displayPrecision), t.holdoutScore.toFixed(displayPrecision)],
    baseline: t.baseline && { name: t.baseline.name, score: t.baseline.score.toFixed(displayPrecision) },
  }));
}

const FIELD_NAMES: Record<string, string> = {
  endsAt: "deadline",
  dailySubmissionLimit: "daily cap",
  lateSubmissions: "late submissions",
  maxQueries: "m",
  budget: "B₀ for new teams",
};

function logged(value: unknown): string {
  if (typeof value === "number") return n4(value);
  if (typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value)) return UTC.format(new Date(value));
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text || "(empty)";
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
  const [solutionSummary, solution, summary, plan, attachments, organizers, health, registrations, all, changes, sandbox, bans] = await Promise.all([
    getSolutionSummary(competition.id),
    loadSolution(competition.id),
    getCorrelationSummary(competition),
    getCurrentPlan(competition),
    listAttachments(competition.id),
    listOrganizers(competition.id),
    holdoutHealth(user, slug),
    listRegistrations(competition.id),
    listAllSubmissions(user, slug),
    listChanges(competition.id),
    listSandbox(competition),
    listBans(competition.id),
  ]);
  const locked = competition.status !== "draft";
  const stored = (competition.mechanism ?? {}) as Record<string, unknown>;
  const initial = Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, String(v)]));
  const chain = summary?.chain;

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
            {metricTitle(competition.metric)} · closes {formatDate(competition.endsAt)} · {competition.dailySubmissionLimit} submissions per team per day
          </p>
        </div>
        <Lifecycle slug={slug} status={competition.status} />
      </div>

      <nav aria-label="Sections" className="flex flex-wrap gap-3 text-sm">
        {["settings", "solution", "data", "correlation", "mechanism", "sandbox", "access", "signals", "submissions", "health", "changes", "organizers"].map((s) => (
          <a key={s} href={`#${s}`} className="rounded-full bg-white px-3 py-1 capitalize ring-1 ring-slate-200 hover:bg-slate-100">
            {s}
          </a>
        ))}
      </nav>

      <Section
        id="settings"
        title="Settings"
        description="Wording, deadline, daily cap and late submissions, also after publishing. A change that moves m (the submissions per team the guarantee covers) shows the recomputed plan before it is saved."
      >
        <SettingsEditor
          slug={slug}
          closed={competition.status === "closed"}
          current={{
            title: competition.title,
            description: competition.description,
            rules: competition.rules,
            endsAt: competition.endsAt.toISOString(),
            dailySubmissionLimit: competition.dailySubmissionLimit,
            lateSubmissions: competition.lateSubmissions,
          }}
        />
      </Section>

      <Section id="solution" title="Solution" description="The labels of every test row and which split it belongs to. Competitors never see it.">
        {solutionSummary ? (
          <p className="text-sm" data-testid="solution-summary">
            <strong>{solutionSummary.rows.toLocaleString("en")}</strong> rows: {solutionSummary.public.toLocaleString("en")} public, {solutionSummary.holdout.toLocaleString("en")}{" "}
            holdout
            {solution?.groups ? `, ${solution.groups.names.length.toLocaleString("en")} groups` : ""}
            {solution?.states ? `, states ${solution.states.names.join(", ")}` : ""}. Uploaded {formatDate(solutionSummary.uploadedAt)}.
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
        <CorrelationEditor
          slug={slug}
          current={(competition.correlation as never) ?? { kind: "independent" }}
          hasGroups={Boolean(solution?.groups)}
          hasStates={Boolean(solution?.states)}
          locked={locked}
        />
        {summary && (
          <div className="space-y-3 rounded-md bg-slate-50 p-4 text-sm" data-testid="correlation-summary">
            <p>
              Holdout rows n = {summary.n.toLocaleString("en")}; effective sample size n<sub>eff</sub> = {n4(summary.nEff)}.
            </p>
            {chain && (
              <>
                <p>
                  {chain.chains.toLocaleString("en")} independent chain{chain.chains === 1 ? "" : "s"} (longest {chain.longestChain}) over {chain.states} states
                  {chain.stateNames ? ` (${chain.stateNames.join(", ")})` : ""}; {chain.reversible ? "reversible" : "not reversible (Lemma 4 does not apply)"}
                  {chain.spectralGap !== null ? `, spectral gap ${n4(chain.spectralGap)}` : ""}, λ = {n4(chain.lambda)}.
                </p>
                <table className="text-left font-mono text-xs">
                  <caption className="mb-1 text-left font-sans text-sm font-medium">Transition matrix P and stationary distribution π</caption>
                  <thead>
                    <tr>
                      <th scope="col" className="pr-3">
                        from \ to
                      </th>
                      {(chain.stateNames ?? chain.stationary.map((_, i) => String(i + 1))).map((s) => (
                        <th key={s} scope="col" className="pr-3">
                          {s}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {(summary.model.kind === "markov" ? summary.model.transition : []).map((row, i) => (
                      <tr key={i}>
                        <th scope="row" className="pr-3">
                          {chain.stateNames?.[i] ?? i + 1}
                        </th>
                        {row.map((p, j) => (
                          <td key={j} className="pr-3">
                            {p.toFixed(3)}
                          </td>
                        ))}
                      </tr>
                    ))}
                    <tr>
                      <th scope="row" className="pr-3">
                        π
                      </th>
                      {chain.stationary.map((p, j) => (
                        <td key={j} className="pr-3">
                          {p.toFixed(3)}
                        </td>
                      ))}
                    </tr>
                  </tbody>
                </table>
              </>
            )}
            {summary.groupSizes && (
              <BarChart
                title="Groups by size (holdout rows per group)"
                unit="groups"
                bars={Object.entries(summary.groupSizes).map(([size, count]) => ({ label: `${size} row${size === "1" ? "" : "s"}`, value: count }))}
              />
            )}
          </div>
        )}
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
            metric={{ title: metricTitle(competition.metric), displayScale: metricOf(competition).toDisplay(1) }}
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
        {health.teams.length === 0 ? (
          <p className="text-sm text-slate-500">No teams yet.</p>
        ) : (
          <div className="space-y-3 text-sm" data-testid="health">
            <p>
              Total ε<sub>DP</sub> spent: <strong>{n4(health.total)}</strong> ({n4(health.perHoldoutAnswer)} per holdout answer); {health.exhausted} of {health.teams.length} teams
              have exhausted their budget{health.baselines ? `; the total counts ${health.baselines} baseline${health.baselines === 1 ? "" : "s"} shown on the leaderboard` : ""}.
            </p>
            <div className="overflow-x-auto">
              <table className="w-full text-left">
                <caption className="sr-only">Privacy spent per team</caption>
                <thead className="text-slate-500">
                  <tr>
                    <th scope="col" className="py-1 pr-3 font-medium">
                      Team
                    </th>
                    <th scope="col" className="py-1 pr-3 text-right font-medium">
                      Holdout answers
                    </th>
                    <th scope="col" className="py-1 pr-3 text-right font-medium">
                      ε_DP spent
                    </th>
                    <th scope="col" className="py-1 font-medium">
                      Budget
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {health.teams.map((t) => (
                    <tr key={t.name}>
                      <td className="py-1 pr-3">{t.name}</td>
                      <td className="py-1 pr-3 text-right tabular-nums">{t.holdoutAnswers}</td>
                      <td className="py-1 pr-3 text-right tabular-nums">{n4(t.epsDp)}</td>
                      <td className="py-1">{t.exhausted ? <span className="font-medium text-red-700">exhausted</span> : `${t.remaining} of ${t.initial} left`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )}
      </Section>

      <Section id="changes" title="Change log" description="Every change of the settings: who, when, before → after.">
        {changes.length === 0 ? (
          <p className="text-sm text-slate-500">No changes yet.</p>
        ) : (
          <ol className="space-y-2 text-sm" data-testid="change-log">
            {changes.map((entry, i) => (
              <li key={i}>
                <span className="text-slate-500">
                  {UTC.format(new Date(entry.at))} UTC, {entry.by}:
                </span>{" "}
                {entry.changes.map((c) => `${FIELD_NAMES[c.field] ?? c.field} ${logged(c.before)} → ${logged(c.after)}`).join("; ")}
              </li>
            ))}
          </ol>
        )}
      </Section>

      <Section id="organizers" title="Organizers">
        <ul className="text-sm">
          {organizers.map((o) => (
            <li key={o.email}>
              {o.name} <span className="text-slate-500">({o.email})</span>
            </li>
          ))}
        </ul>
        <InviteOrganizer slug={slug} />
      </Section>
    </div>
  );
}
