import { accessOf } from "@/lib/server/competitions/access";
import type { CompetitionRow } from "@/lib/server/competitions/competitions";
import { describeAccess } from "@/lib/format";
import { Markdown } from "../markdown";

/** The organizers' rules, or a line saying there are none beyond the platform's limits. */
export function OrganizerRules({ rules }: { rules: string }) {
  return rules ? <Markdown>{rules}</Markdown> : <p className="text-sm text-slate-600">The organizers have set no rules beyond the limits below.</p>;
}

/** The platform's limits for this competition: team size, the daily cap, who may take part, late submissions. */
export function CompetitionLimits({ competition }: { competition: CompetitionRow }) {
  return (
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
  );
}
