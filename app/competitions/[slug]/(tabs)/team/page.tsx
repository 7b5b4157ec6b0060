import Link from "../../../../_components/link";
import { accessOf, missingIdentity, myRegistration, requireRules } from "@/lib/server/competitions/access";
import { AppError } from "@/lib/server/platform/errors";
import { signInProviders } from "@/lib/server/accounts/auth";
import { ProviderSignInButton } from "../../../../_components/provider-sign-in-button";
import { ApiForm } from "../../../../_components/api-form";
import { TeamPanel } from "../../../../_components/compete/team-panel";
import { describeAccess, sentence } from "@/lib/format";
import { CompetitionLimits, OrganizerRules } from "../../../../_components/view/competition-rules";
import { Section } from "../../../../_components/section";
import { BUTTON, LINK } from "../../../../_components/tones";
import { loadCompetition, tabMetadata } from "../competition";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => tabMetadata(params, "Team");

/**
 * The Team tab: create or join a team (which accepts the rules, shown beside the checkbox), or one's
 * team: members, budget, limits, invite code. Someone who lacks the sign-in the access rules ask for
 * is told so, with a button that signs in through that provider and comes back here (which links
 * the identity to the account with the same verified address).
 */
export default async function TeamTab({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { viewer, competition, organizer, team, open } = await loadCompetition(slug);
  const access = accessOf(competition);
  const registration = viewer && !organizer && access.approval ? await myRegistration(viewer, competition.id) : null;
  // A member the rules as they stand now turn away (set after the team was joined, or an address
  // changed): their submissions are refused (403) until they meet them, and the tab says which rule.
  const shutOut =
    viewer && team && !organizer
      ? await requireRules(viewer, competition).then(
          () => null,
          (error) => (error instanceof AppError ? error : Promise.reject(error)),
        )
      : null;
  const here = `/competitions/${slug}/team`;
  const restricted = access.requireVerifiedEmail || access.approval || access.allowedEmailDomains.length > 0 || Boolean(access.identity);
  const missing = viewer && !organizer ? await missingIdentity(viewer, access) : null;
  const provider = access.identity && signInProviders().find((p) => p.id === access.identity!.provider);
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
          {missing && (
            <div role="note" data-testid="identity-required" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
              <p>{sentence(missing.problem)}</p>
              {provider ? (
                <>
                  <p>
                    Sign in with {provider.name} using your account&apos;s address ({viewer.email}): it is linked to your account, and you come back here.
                  </p>
                  <ProviderSignInButton id={provider.id} callbackUrl={here} className={BUTTON.primary}>
                    Sign in with {provider.name}
                  </ProviderSignInButton>
                </>
              ) : (
                <p>This site no longer offers that sign-in: ask the organizers.</p>
              )}
            </div>
          )}
          {shutOut && shutOut.code !== "identity_required" && (
            <p role="note" data-testid="rules-shut-out" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
              The organizers&apos; rules changed after you joined, and your submissions are refused until you meet them: {shutOut.message}.
            </p>
          )}
          {access.approval && open && registration !== "approved" && (!team || shutOut?.code === "approval_required") && (
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
