import Link from "../../../../_components/link";
import { accessOf } from "@/lib/server/competitions/access";
import { describeAccess } from "../../../../_components/format";
import { Markdown } from "../../../../_components/markdown";
import { Section } from "../../../../_components/section";
import { LINK } from "../../../../_components/tones";
import { loadCompetition, tabMetadata } from "../competition";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => tabMetadata(params, "Rules");

/** The Rules tab: the organizers' rules and the platform's limits; creating or joining a team accepts them. */
export default async function RulesPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { competition, organizer, team, open } = await loadCompetition(slug);
  return (
    <div className="space-y-6">
      <Section id="rules" title="Rules">
        {competition.rules ? <Markdown>{competition.rules}</Markdown> : <p className="text-sm text-slate-600">The organizers have set no rules beyond the limits below.</p>}
      </Section>
      <Section id="limits" title="Limits">
        <ul className="list-disc space-y-1 pl-5 text-sm">
          <li>Teams of up to {competition.maxTeamSize} people; one account per person.</li>
          <li>At most {competition.dailySubmissionLimit} submissions per team per UTC day.</li>
          <li>Who may take part: {describeAccess(accessOf(competition))}.</li>
          <li>
            {competition.lateSubmissions
              ? "After the close, late submissions get their exact holdout score on a separate board; they never change the final standings."
              : "No submissions are taken after the close."}
          </li>
        </ul>
        {!organizer && !team && open && (
          <p className="text-sm">
            Creating or joining a team accepts these rules.{" "}
            <Link href={`/competitions/${slug}/team`} className={LINK}>
              Join competition
            </Link>
          </p>
        )}
      </Section>
    </div>
  );
}
