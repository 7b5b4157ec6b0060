"use client";

import { useRouter } from "next/navigation";
import { type ReactNode, useState } from "react";
import { callApi } from "../api-client";
import { BudgetBar } from "../budget-bar";
import { FormError } from "../field";
import { LocalTime } from "../local-time";
import { ScrollFrame } from "../scroll-frame";
import { useFocusOn } from "../focus";
import { BUTTON, NOTE } from "../tones";
import type { TeamView } from "@/lib/responses";

/**
 * Join (create a team or use an invite code, accepting the rules, which are shown above the
 * checkbox in a frame that scrolls, reachable with Tab when it does) or see one's team. After
 * creating or joining, the team's name takes the focus and the join is announced. Once the
 * competition has closed, what only matters while it runs (today's submissions, the invite code,
 * merging and leaving) is not shown.
 */
export function TeamPanel({ slug, team, open, closed, rules }: { slug: string; team: TeamView | null; open: boolean; closed: boolean; rules: ReactNode }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [joined, setJoined] = useState<string>();
  const heading = useFocusOn<HTMLHeadingElement>(joined && team);

  async function post(path: string, json: unknown, done?: (name: string) => string) {
    const result = await callApi<{ name: string }>(`/api/v1/competitions/${slug}/${path}`, { method: "POST", json });
    if (!result.ok) return setError(result.error.message);
    setError(undefined);
    if (done) setJoined(done(result.data.name));
    router.refresh();
  }

  const errorBox = <FormError message={error} />;

  if (!team) {
    if (!open) return <p className="text-sm text-slate-600">{closed ? "This competition has closed." : "This competition is not open for new teams."}</p>;
    return (
      <div className="space-y-4">
        {errorBox}
        <div className="space-y-1" data-testid="rules-to-accept">
          <h3 className="text-sm font-medium text-slate-700">The rules you accept by taking part</h3>
          <ScrollFrame className="max-h-72 overflow-y-auto rounded-md border border-slate-200 bg-slate-50 p-4 text-sm" label="The rules you accept">
            {rules}
          </ScrollFrame>
        </div>
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            const f = new FormData(e.currentTarget);
            post("teams", { name: f.get("name"), acceptRules: f.get("acceptRules") === "on" }, (name) => `You created the team ${name}.`);
          }}
        >
          <label className="block text-sm">
            <span className="font-medium text-slate-700">Team name</span>
            <input name="name" required minLength={2} className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2" />
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="acceptRules" required /> I accept the rules of this competition
          </label>
          <button type="submit" className={BUTTON.primary}>
            Create team
          </button>
        </form>
        <form
          className="flex flex-col gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            post("teams/join", { inviteCode: new FormData(e.currentTarget).get("inviteCode") }, (name) => `You joined the team ${name}.`);
          }}
        >
          <label className="block flex-1 text-sm">
            <span className="font-medium text-slate-700">Or join a team with its invite code (joining accepts the rules)</span>
            <input name="inviteCode" required className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono" />
          </label>
          <button type="submit" className={BUTTON.secondary}>
            Join team
          </button>
        </form>
      </div>
    );
  }

  const { incoming, outgoing } = team.mergeRequests;
  return (
    <div className="space-y-4" data-testid="team-panel">
      {errorBox}
      {joined && (
        <p role="status" className={NOTE.success}>
          {joined}
        </p>
      )}
      {team.disqualified && (
        <p role="alert" className={NOTE.error} data-testid="disqualified">
          The organizers disqualified your team on <LocalTime at={team.disqualified.at} shown="date" />: {team.disqualified.reason}. It is off the leaderboards and cannot submit.
        </p>
      )}
      {open && incoming.length + outgoing.length > 0 && (
        <ul className="space-y-2 text-sm" data-testid="merge-requests">
          {incoming.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-2 rounded-md bg-amber-50 px-3 py-2">
              <span className="flex-1">
                Team <strong>{r.team}</strong> ({r.requestedBy}) asks your team to merge into theirs: your members and submissions would join it.
              </span>
              <button type="button" onClick={() => post(`teams/merge-requests/${r.id}/accept`, {})} className={BUTTON.primary}>
                Accept
              </button>
              <button type="button" onClick={() => post(`teams/merge-requests/${r.id}/decline`, {})} className={BUTTON.secondary}>
                Decline
              </button>
            </li>
          ))}
          {outgoing.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-2 rounded-md bg-slate-50 px-3 py-2">
              <span className="flex-1">
                Your team asked team <strong>{r.team}</strong> to merge into yours; waiting for its answer.
              </span>
              <button type="button" onClick={() => post(`teams/merge-requests/${r.id}/cancel`, {})} className={BUTTON.secondary}>
                Cancel
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 ref={heading} tabIndex={-1} className="text-lg font-semibold">
          {team.name}
        </h3>
        <p className="text-sm text-slate-600">{team.members.map((m) => m.name).join(", ")}</p>
      </div>
      <BudgetBar remaining={team.budget.remaining} initial={team.budget.initial} labelled />
      {team.scored && (
        <p className="text-sm text-slate-600" data-testid="scored-left">
          Scored submissions: <strong className="text-slate-900">{team.scored.limit - team.scored.used}</strong> of {team.scored.limit} left (this competition&apos;s limit per
          team; after it your public score is still shown, not checked).
        </p>
      )}
      {!closed && (
        <>
          <p className="text-sm text-slate-600" data-testid="daily-limits">
            Submissions today: <strong className="text-slate-900">{team.limits.usedToday}</strong> of {team.limits.dailyLimit} used, {team.limits.remainingToday} left; the count
            resets at <LocalTime at={team.limits.resetsAt} shown="time" />.
          </p>
          <p className="text-sm">
            Invite code:{" "}
            <code className="rounded bg-slate-100 px-2 py-0.5 font-mono" data-testid="invite-code">
              {team.inviteCode}
            </code>
          </p>
        </>
      )}
      {open && (
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-slate-700">Merge or leave</summary>
          <div className="mt-3 space-y-3">
            <form
              className="flex flex-col gap-2 sm:flex-row sm:items-end"
              onSubmit={(e) => {
                e.preventDefault();
                post("teams/merge", { inviteCode: new FormData(e.currentTarget).get("inviteCode") });
              }}
            >
              <label className="block flex-1">
                <span className="text-slate-700">
                  Ask another team to merge into yours (its invite code): one of its members accepts or declines. The merged budget is what is left after both teams&apos; spending.
                </span>
                <input name="inviteCode" required className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono" />
              </label>
              <button type="submit" className={BUTTON.secondary}>
                Ask to merge
              </button>
            </form>
            {team.submissions === 0 && (
              <button type="button" onClick={() => post("teams/leave", {})} className="text-red-700 hover:underline">
                Leave this team
              </button>
            )}
          </div>
        </details>
      )}
    </div>
  );
}
