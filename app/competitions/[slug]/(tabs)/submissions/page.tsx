import Link from "../../../../_components/link";
import { listMySubmissions } from "@/lib/server/scoring/team-submissions";
import { MySubmissions } from "../../../../_components/compete/my-submissions";
import { SubmitPanel } from "../../../../_components/compete/submit-panel";
import { Section } from "../../../../_components/section";
import { LINK } from "../../../../_components/tones";
import { loadCompetition, tabMetadata } from "../competition";

export const generateMetadata = ({ params }: { params: Promise<{ slug: string }> }) => tabMetadata(params, "My submissions");

/** The My submissions tab: submit a predictions file (while the competition takes them), then the team's submissions and its final selection. */
export default async function SubmissionsTab({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { viewer, competition, team, open, late } = await loadCompetition(slug);
  if (!team) {
    return (
      <Section id="my-submissions" title="My submissions">
        <p className="text-sm">
          {viewer ? "Create or join a team first: submissions belong to a team." : "Sign in and join a team to submit predictions."}{" "}
          <Link href={`/competitions/${slug}/team`} className={LINK}>
            {viewer ? "Join competition" : "Sign in to join"}
          </Link>
        </p>
      </Section>
    );
  }
  const mine = await listMySubmissions(viewer!, slug);
  return (
    <div className="space-y-6">
      {(open || late) && (
        <Section id="submit" title={late ? "Late submission" : "Submit predictions"}>
          {late && (
            <p className="text-sm text-slate-600">
              The competition has closed. Late submissions get their exact holdout score on the late board and never change the final standings.
            </p>
          )}
          <SubmitPanel slug={slug} maxQueries={competition.maxQueries} limits={team.limits} budget={team.budget} scored={team.scored} late={late} />
        </Section>
      )}
      <Section id="my-submissions" title="My submissions">
        <MySubmissions slug={slug} submissions={mine.submissions} finalIds={mine.finalIds} locked={competition.status === "closed"} />
      </Section>
    </div>
  );
}
