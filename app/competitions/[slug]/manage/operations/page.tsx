import { holdoutHealth } from "@/lib/server/scoring/audit";
import { listOrganizers } from "@/lib/server/competitions/organizers";
import { listBans, listRegistrations } from "@/lib/server/competitions/access";
import { listAllSubmissions } from "@/lib/server/console/console";
import { listAnnouncements } from "@/lib/server/competitions/announcements";
import { listWebhooks } from "@/lib/server/competitions/webhooks";
import { Announcements } from "../../../../_components/announcements";
import { AnnouncementForm } from "../../../../_components/manage/announcement-form";
import { Bans } from "../../../../_components/manage/bans";
import { HoldoutHealth } from "../../../../_components/manage/holdout-health";
import { ManageHeader } from "../../../../_components/manage/manage-header";
import { Organizers } from "../../../../_components/manage/organizers";
import { Registrations } from "../../../../_components/manage/registrations";
import { type ConsoleLine, SubmissionsConsole } from "../../../../_components/manage/submissions-console";
import { SybilSignals } from "../../../../_components/manage/sybil-signals";
import { Webhooks } from "../../../../_components/manage/webhooks";
import { Section } from "../../../../_components/section";
import { loadManaged, manageMetadata, OPERATIONS_SECTIONS } from "../organizer";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => manageMetadata(params, "/operations");

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

/**
 * The manage page's operations: what the organizers run while the competition is open (every
 * submission with its raw scores, the signals of one person behind several teams, the privacy each
 * team spent, requests to take part, bans, announcements, webhooks, the organizers). The settings
 * and everything configured are on the setup page (../page.tsx).
 */
export default async function OperationsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { user, competition } = await loadManaged(slug, "/operations");
  const [all, health, registrations, bans, announcements, webhooks, organizers] = await Promise.all([
    listAllSubmissions(user, slug),
    holdoutHealth(user, slug),
    listRegistrations(competition),
    listBans(competition),
    competition.status === "draft" ? [] : listAnnouncements(competition.id),
    listWebhooks(competition),
    listOrganizers(competition, user),
  ]);

  return (
    <div className="space-y-6">
      <ManageHeader competition={competition} sections={OPERATIONS_SECTIONS.filter((s) => s !== "announcements" || competition.status !== "draft")} />

      <Section
        id="submissions"
        title="Submissions"
        description="Every submission with its raw public and holdout scores, which competitors never see. Disqualifying a team takes it off the live and final boards; its budget is not restored."
      >
        <SubmissionsConsole slug={slug} rows={consoleLines(all)} />
      </Section>

      <Section
        id="signals"
        title="Signs of one person behind several teams"
        description="Several accounts give several budgets on one holdout. These are signals to look into, not proof."
      >
        <SybilSignals signals={all.signals} />
      </Section>

      <Section id="health" title="Holdout health" description="The privacy each team has spent on the holdout (ε_DP of its holdout answers) and in total, by basic composition.">
        <HoldoutHealth health={health} />
      </Section>

      <Section
        id="registrations"
        title="Requests to take part"
        description="Where the access rules ask organizers to approve each participant (Setup, Access): approve or refuse each request; the person is told by mail."
      >
        <Registrations slug={slug} registrations={registrations} />
      </Section>

      <Section id="bans" title="Banned users" description="A banned person cannot submit or join a team here; they are shown the reason.">
        <Bans slug={slug} bans={bans} />
      </Section>

      {competition.status !== "draft" && (
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
        id="organizers"
        title="Organizers"
        description="Organizers see every raw score, so they cannot compete here. An invited address becomes an organizer when it accepts the mailed link."
      >
        <Organizers slug={slug} view={organizers} />
      </Section>
    </div>
  );
}
