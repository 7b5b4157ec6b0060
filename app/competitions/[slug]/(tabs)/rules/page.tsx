import Link from "../../../../_components/link";
import { CompetitionLimits, OrganizerRules } from "../../../../_components/view/competition-rules";
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
        <OrganizerRules rules={competition.rules} />
      </Section>
      <Section id="limits" title="Limits">
        <CompetitionLimits competition={competition} />
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
