import Link from "../../../../_components/link";
import { accessOf, myRegistration } from "@/lib/server/competitions/access";
import { ApiForm } from "../../../../_components/api-form";
import { TeamPanel } from "../../../../_components/compete/team-panel";
import { describeAccess } from "@/lib/format";
import { CompetitionLimits, OrganizerRules } from "../../../../_components/view/competition-rules";
import { Section } from "../../../../_components/section";
import { BUTTON, LINK } from "../../../../_components/tones";
import { loadCompetition, tabMetadata } from "../competition";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => tabMetadata(params, "Team");

/**
 * The Team tab: create or join a team (which accepts the rules, shown beside the checkbox), or one's
 * team: members, budget, limits, invite code.
 */
export default async function TeamTab({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { viewer, competition, organizer, team, open } = await loadCompetition(slug);
  const access = accessOf(competition);
  const registration = viewer && !team ? await myRegistration(viewer, competition.id) : null;
  const here = `/competitions/${slug}/team`;
  const restricted = access.requireVerifiedEmail || access.approval || access.allowedEmailDomains.length > 0;
  return (
    <Section id="team" title={team ? "Your team" : "Take part"}>
      {restricted && !team && (
        <p className="text-sm text-slate-600" data-testid="access-rules">
          This competition admits {describeAccess(access)}.
        </p>
      )}
      {organizer ? (
        <p className="text-sm">
          You organize this competition, and organizers do not take part.{" "}
          <Link href={`/competitions/${slug}/manage`} className={LINK}>
            Manage it
          </Link>
        </p>
      ) : !viewer ? (
        <div className="space-y-3 text-sm">
          <p>Sign in to create or join a team. Creating or joining a team accepts the competition&apos;s rules.</p>
          <p className="flex flex-wrap gap-3">
            <Link href={`/signin?callbackUrl=${encodeURIComponent(here)}`} className={BUTTON.primary}>
              Sign in
            </Link>
            <Link href={`/signup?callbackUrl=${encodeURIComponent(here)}`} className={BUTTON.secondary}>
              Create an account
            </Link>
          </p>
        </div>
      ) : (
        <>
          {!team && access.approval && open && registration !== "approved" && (
            <div data-testid="registration">
              {registration ? (
                <p className="text-sm">
                  Your request to take part is <strong>{registration}</strong>.
                </p>
              ) : (
                <ApiForm
                  method="POST"
                  path={`/api/v1/competitions/${slug}/registrations`}
                  fields={[]}
                  submitLabel="Ask to take part"
                  success="Your request was sent to the organizers; we will mail you their answer."
                />
              )}
            </div>
          )}
          <TeamPanel
            slug={slug}
            team={team}
            open={open}
            closed={competition.status === "closed"}
            rules={
              <div className="space-y-4">
                <OrganizerRules rules={competition.rules} />
                <CompetitionLimits competition={competition} />
              </div>
            }
          />
        </>
      )}
    </Section>
  );
}
