import { describe, expect, it } from "vitest";
import { banUser } from "@/lib/server/competitions/access";
import { listCompetitions, requireOrganizer } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { auditCompetition } from "@/lib/server/scoring/audit";
import { submit } from "@/lib/server/scoring/submit";
import { acceptMerge, cancelMerge, declineMerge, requestMerge } from "@/lib/server/teams/merges";
import { createTeam, getMyTeam, joinTeam, leaveTeam, setDisqualified } from "@/lib/server/teams/teams";
import type { PublicUser } from "@/lib/server/accounts/users";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { lastMailTo, mailCount } from "@/scripts/support/caught-mail";
import { newUser, publishedCompetition, rejection, stream } from "@/test/support/factories";

// Teams and their members (lib/server/teams): joining within the size limit, merges that the
// absorbed team agrees to, and what a disqualified team is told.

async function liveCompetition(options: { daily?: number; budget?: number; sigma?: number; threshold?: number; maxTeamSize?: number } = {}) {
  return publishedCompetition({
    settings: { dailySubmissionLimit: options.daily ?? 1000, maxTeamSize: options.maxTeamSize ?? 3 },
    mechanism: { mode: "practical", sigma: options.sigma ?? 0.01, threshold: options.threshold ?? 0.04, budget: options.budget ?? 5 },
  });
}

/** A user with a team of their own. */
async function player(slug: string, name: string) {
  const user = await newUser();
  const team = await createTeam(user, slug, { name, acceptRules: true });
  return { user, team };
}

/** `asker`'s team asks the team with `inviteCode` to merge into it, and `member` of that team accepts. */
async function merge(slug: string, asker: PublicUser, member: PublicUser, inviteCode: string) {
  const request = await requestMerge(asker, slug, { inviteCode });
  return acceptMerge(member, slug, request.id);
}

// Right on every public row, a coin flip on the holdout: at a tiny T every answer is a holdout answer.
const overfit = (seed: string) => stream(demoPredictionsCsv({ skill: 0, seed, overfit: true }));
// Right as often on both splits: at a generous T every answer is public.
const honest = (seed: string) => stream(demoPredictionsCsv({ skill: 0.7, seed }));

describe("joining", () => {
  it("counts the size limit under the team's lock: concurrent joins never pass it", async () => {
    const c = await liveCompetition({ maxTeamSize: 2 });
    const { team } = await player(c.slug, "Pair");
    const joiners = await Promise.all(Array.from({ length: 6 }, () => newUser()));
    const outcomes = await Promise.allSettled(joiners.map((u) => joinTeam(u, c.slug, { inviteCode: team.inviteCode })));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(await db.teamMember.count({ where: { teamId: team.id } })).toBe(2);
    for (const o of outcomes) if (o.status === "rejected") expect(o.reason.message).toBe("the team is full (at most 2 members)");
  });
});

describe("merges need the absorbed team's consent", () => {
  it("asks, shows the request to both teams and mails the team asked, and changes nothing until one of its members accepts", async () => {
    const c = await liveCompetition();
    const alpha = await player(c.slug, "Alpha");
    const beta = await player(c.slug, "Beta");
    const stranger = await player(c.slug, "Gamma");
    await submit(beta.user, c.slug, honest("beta"));
    const before = await db.team.findMany({ where: { competitionId: c.id }, orderBy: { id: "asc" } });

    const request = await requestMerge(alpha.user, c.slug, { inviteCode: beta.team.inviteCode });
    expect(request).toMatchObject({ team: "Beta", teamId: beta.team.id, requestedBy: alpha.user.name, status: "pending" });
    expect(await db.team.findMany({ where: { competitionId: c.id }, orderBy: { id: "asc" } })).toEqual(before);
    expect((await getMyTeam(beta.user, c.slug))!.mergeRequests).toEqual({
      incoming: [{ id: request.id, team: "Alpha", teamId: alpha.team.id, requestedBy: alpha.user.name, createdAt: request.createdAt }],
      outgoing: [],
    });
    expect((await getMyTeam(alpha.user, c.slug))!.mergeRequests.outgoing.map((r) => r.id)).toEqual([request.id]);
    expect((await lastMailTo(beta.user.email, /asks to merge/)).text).toContain("Accept or decline on the competition's page");
    // Nobody but the team asked can accept: not the team that asked, not a third team (404 either way).
    expect((await rejection(acceptMerge(alpha.user, c.slug, request.id))).status).toBe(404);
    expect((await rejection(acceptMerge(stranger.user, c.slug, request.id))).status).toBe(404);
    expect((await rejection(requestMerge(alpha.user, c.slug, { inviteCode: beta.team.inviteCode }))).status).toBe(409); // one pending request per pair

    const merged = await acceptMerge(beta.user, c.slug, request.id);
    expect(merged.id).toBe(alpha.team.id);
    expect(merged.members.map((m) => m.name).sort()).toEqual([alpha.user.name, beta.user.name].sort());
    expect(merged.submissions).toBe(1);
    expect(merged.mergeRequests).toEqual({ incoming: [], outgoing: [] });
    // The surviving team's invite code is new; the absorbed team's code is dead.
    expect(merged.inviteCode).not.toBe(alpha.team.inviteCode);
    const late = await newUser();
    expect((await rejection(joinTeam(late, c.slug, { inviteCode: alpha.team.inviteCode }))).status).toBe(404);
    expect((await rejection(joinTeam(late, c.slug, { inviteCode: beta.team.inviteCode }))).status).toBe(404);
    expect((await rejection(requestMerge(stranger.user, c.slug, { inviteCode: beta.team.inviteCode }))).status).toBe(404);
    expect((await lastMailTo(alpha.user.email, /merged into your team/)).text).toContain("accepted your team's request");
    expect((await rejection(acceptMerge(beta.user, c.slug, request.id))).status).toBe(404); // beta's members are alpha's now
  });

  it("a declined or cancelled request merges nothing and cannot be accepted afterwards", async () => {
    const c = await liveCompetition();
    const alpha = await player(c.slug, "Alpha");
    const beta = await player(c.slug, "Beta");
    const declined = await requestMerge(alpha.user, c.slug, { inviteCode: beta.team.inviteCode });
    expect((await rejection(declineMerge(alpha.user, c.slug, declined.id))).status).toBe(404); // the asking team cancels, it does not decline
    expect(await declineMerge(beta.user, c.slug, declined.id)).toEqual({ id: declined.id, status: "declined" });
    expect((await rejection(acceptMerge(beta.user, c.slug, declined.id))).message).toBe("this merge request was declined already");
    expect((await lastMailTo(alpha.user.email, /declined to merge/)).text).toContain("Nothing changed");
    const cancelled = await requestMerge(alpha.user, c.slug, { inviteCode: beta.team.inviteCode });
    expect((await rejection(cancelMerge(beta.user, c.slug, cancelled.id))).status).toBe(404);
    await cancelMerge(alpha.user, c.slug, cancelled.id);
    expect((await rejection(acceptMerge(beta.user, c.slug, cancelled.id))).message).toBe("this merge request was cancelled already");
    expect((await getMyTeam(beta.user, c.slug))!.members).toHaveLength(1);
  });

  it("refuses a disqualified team either way, and a team with a banned member (the red team's hostile merge)", async () => {
    const c = await liveCompetition();
    const cheat = await player(c.slug, "Cheat");
    const leader = await player(c.slug, "Leader");
    await submit(leader.user, c.slug, honest("leader"));
    await setDisqualified(c.owner, c.slug, cheat.team.id, { reason: "sharing accounts" });
    // A disqualified team can neither absorb the leader nor be absorbed (its submissions would count for a clean team).
    expect((await rejection(requestMerge(cheat.user, c.slug, { inviteCode: leader.team.inviteCode }))).message).toBe(
      "team Cheat was disqualified by the organizers; it cannot merge",
    );
    expect((await rejection(requestMerge(leader.user, c.slug, { inviteCode: cheat.team.inviteCode }))).message).toBe(
      "team Cheat was disqualified by the organizers; it cannot merge",
    );
    // A request made before the disqualification is refused when it is accepted.
    const other = await player(c.slug, "Other");
    const pending = await requestMerge(other.user, c.slug, { inviteCode: leader.team.inviteCode });
    await setDisqualified(c.owner, c.slug, other.team.id, { reason: "a copied solution" });
    expect((await rejection(acceptMerge(leader.user, c.slug, pending.id))).message).toBe("team Other was disqualified by the organizers; it cannot merge");
    expect((await getMyTeam(leader.user, c.slug))!.members).toHaveLength(1);

    const clean = await player(c.slug, "Clean");
    const banned = await player(c.slug, "Banned");
    await banUser(await requireOrganizer(c.owner, c.slug), { email: banned.user.email, reason: "a second account" });
    expect((await rejection(requestMerge(clean.user, c.slug, { inviteCode: banned.team.inviteCode }))).message).toBe(
      "a member of team Banned is banned from this competition; the team cannot merge",
    );

    // A team formed by someone who organized the competition before organizing left its mark (the
    // migration gave them their mark back) cannot carry them into another team, either way.
    const former = await player(c.slug, "Former");
    await db.competitionOrganizer.create({ data: { competitionId: c.id, userId: former.user.id, removedAt: new Date() } });
    for (const [asker, asked] of [
      [clean, former],
      [former, clean],
    ]) {
      expect((await rejection(requestMerge(asker.user, c.slug, { inviteCode: asked.team.inviteCode }))).message).toBe(
        "a member of team Former organizes or organized this competition and saw its raw scores; the team cannot merge",
      );
    }
  });

  it("merged budget is B₀ minus what both spent, the absorbed team's open threshold epoch counting as one unit; more than B₀ is refused", async () => {
    const c = await liveCompetition({ budget: 4, sigma: 0.001, threshold: 0.001 });
    const alpha = await player(c.slug, "Alpha");
    const beta = await player(c.slug, "Beta");
    const gamma = await player(c.slug, "Gamma");
    for (let i = 0; i < 2; i++) expect((await submit(alpha.user, c.slug, overfit(`a${i}`))).result.answer.kind).toBe("holdout");
    for (let i = 0; i < 3; i++) expect((await submit(gamma.user, c.slug, overfit(`g${i}`))).result.answer.kind).toBe("holdout");
    expect((await submit(beta.user, c.slug, overfit("b"))).result.answer.kind).toBe("holdout");
    const refused = await rejection(requestMerge(alpha.user, c.slug, { inviteCode: gamma.team.inviteCode }));
    expect(refused.status).toBe(409);
    expect(refused.message).toBe("the two teams received 2 + 3 = 5 holdout answers, more than the budget of 4 one team may hold; they cannot merge");

    const merged = await merge(c.slug, alpha.user, beta.user, beta.team.inviteCode);
    expect(merged.budget).toEqual({ remaining: 1, initial: 4 });
    expect(merged.submissions).toBe(3);
    expect((await db.team.findUniqueOrThrow({ where: { id: beta.team.id } })).mergedIntoId).toBe(merged.id);
    // Both teams had holdout answers only: the merged row is the later of their latest ones (lib/mechanism/board.ts).
    const row = await db.team.findUniqueOrThrow({ where: { id: merged.id } });
    const latest = await db.submission.findFirstOrThrow({ where: { teamId: merged.id, kind: "holdout" }, orderBy: { createdAt: "desc" } });
    expect(row).toMatchObject({ bestValue: latest.answer, bestKind: "holdout", bestAt: latest.createdAt });
    // The absorbed team's queries keep their own streams: the transcript still replays exactly.
    await submit(beta.user, c.slug, overfit("after"));
    expect((await auditCompetition(c.owner, c.slug)).mismatches).toBe(0);
  });

  it("counts the absorbed team's open threshold epoch (a public answer since its last holdout answer) as one budget unit", async () => {
    const c = await liveCompetition({ budget: 3, sigma: 0.001, threshold: 0.5 });
    const alpha = await player(c.slug, "Alpha");
    const beta = await player(c.slug, "Beta");
    await db.team.update({ where: { id: alpha.team.id }, data: { budgetRemaining: 0 } }); // alpha spent all 3 units
    expect((await submit(beta.user, c.slug, honest("beta"))).result.answer.kind).toBe("public"); // beta's epoch is open
    const refused = await rejection(requestMerge(alpha.user, c.slug, { inviteCode: beta.team.inviteCode }));
    expect(refused.message).toBe(
      "the two teams received 3 + 0 holdout answers, and team Beta's open threshold check counts as one more: 4, more than the budget of 3 one team may hold; they cannot merge",
    );
    await db.team.update({ where: { id: alpha.team.id }, data: { budgetRemaining: 1 } }); // alpha spent 2 units
    expect((await merge(c.slug, alpha.user, beta.user, beta.team.inviteCode)).budget).toEqual({ remaining: 0, initial: 3 });
  });

  it("refuses a merge that would exceed the daily cap × the UTC dates so far, the cap's own rule", async () => {
    const c = await liveCompetition({ daily: 2 });
    const one = await player(c.slug, "One");
    const two = await player(c.slug, "Two");
    for (let i = 0; i < 2; i++) await submit(one.user, c.slug, honest(`one-${i}`));
    await submit(two.user, c.slug, honest("two"));
    const error = await rejection(requestMerge(one.user, c.slug, { inviteCode: two.team.inviteCode }));
    expect(error.message).toBe("the merged team would have 3 scored submissions, more than one team could have made so far (the daily cap × 1 UTC date: 2 × 1)");
    // Started an hour before last midnight UTC: less than a day ago (before 23:00 UTC), but on two UTC dates,
    // each with its own daily cap, so one team could have made 2 × 2 submissions (24-hour days allowed 2 × 1).
    const midnight = new Date(new Date().setUTCHours(0, 0, 0, 0));
    await db.competition.update({ where: { id: c.id }, data: { startsAt: new Date(midnight.getTime() - 3_600_000) } });
    expect((await merge(c.slug, one.user, two.user, two.team.inviteCode)).members).toHaveLength(2);
  });

  it("counts the submissions the daily cap counts: answers past m, which the cap lets through, do not make a merge exceed it", async () => {
    const c = await liveCompetition({ daily: 2 });
    await db.competition.update({ where: { id: c.id }, data: { maxQueries: 2 } });
    const one = await player(c.slug, "One");
    const two = await player(c.slug, "Two");
    for (let i = 0; i < 2; i++) expect((await submit(one.user, c.slug, honest(`one-${i}`))).result.answer.kind).not.toBe("limit");
    // Past m the answer is "limit" and the cap does not count it: a third submission today is answered.
    expect((await submit(one.user, c.slug, honest("one-past-m"))).result.answer.kind).toBe("limit");
    // One kept to the cap (2 counted submissions on 1 UTC date) and Two made none: the merge is one team's history.
    const merged = await merge(c.slug, one.user, two.user, two.team.inviteCode);
    expect(merged.members).toHaveLength(2);
    expect(merged.submissions).toBe(3);
  });

  it("re-checks under both teams' locks: of two requests accepted at once that together pass the size limit, one merges", async () => {
    for (let round = 0; round < 3; round++) {
      const c = await liveCompetition({ maxTeamSize: 2 });
      const alpha = await player(c.slug, "Alpha");
      const beta = await player(c.slug, "Beta");
      const gamma = await player(c.slug, "Gamma");
      const toBeta = await requestMerge(alpha.user, c.slug, { inviteCode: beta.team.inviteCode });
      const toGamma = await requestMerge(alpha.user, c.slug, { inviteCode: gamma.team.inviteCode });
      // …and the two teams asked at the same time, in both directions between beta and alpha.
      const back = await requestMerge(beta.user, c.slug, { inviteCode: alpha.team.inviteCode });
      const outcomes = await Promise.allSettled([acceptMerge(beta.user, c.slug, toBeta.id), acceptMerge(gamma.user, c.slug, toGamma.id), acceptMerge(alpha.user, c.slug, back.id)]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const playing = await db.team.findMany({ where: { competitionId: c.id, mergedIntoId: null }, select: { _count: { select: { members: true } } } });
      expect(playing.map((t) => t._count.members).sort()).toEqual([1, 2]);
    }
  });

  it("the competition list counts the teams still playing", async () => {
    const c = await liveCompetition();
    const counted = await Promise.all(["A", "B", "C"].map((n) => player(c.slug, `Counted ${n}`)));
    const count = async () => (await listCompetitions(null)).competitions.find((x) => x.slug === c.slug)!.teams;
    expect(await count()).toBe(3);
    await merge(c.slug, counted[0].user, counted[1].user, counted[1].team.inviteCode);
    expect(await count()).toBe(2);
  });
});

describe("a disqualified team is told", () => {
  it("by mail and in GET …/team, and again when it is reinstated", async () => {
    const c = await liveCompetition();
    const { user, team } = await player(c.slug, "Told");
    const mate = await newUser();
    await joinTeam(mate, c.slug, { inviteCode: team.inviteCode });
    expect((await getMyTeam(user, c.slug))!.disqualified).toBeNull();
    await setDisqualified(c.owner, c.slug, team.id, { reason: "two accounts, one person" });
    expect((await getMyTeam(mate, c.slug))!.disqualified).toMatchObject({ reason: "two accounts, one person" });
    for (const u of [user, mate]) expect((await lastMailTo(u.email, /disqualified/)).text).toContain('"two accounts, one person"');
    expect((await rejection(joinTeam(await newUser(), c.slug, { inviteCode: team.inviteCode }))).message).toBe(
      "that team was disqualified by the organizers; it takes no new members",
    );
    await setDisqualified(c.owner, c.slug, team.id, null);
    expect((await getMyTeam(user, c.slug))!.disqualified).toBeNull();
    expect(await mailCount(user.email, 2)).toBe(2);
    expect((await lastMailTo(user.email, /reinstated/)).text).toContain("can submit again");
  });

  // Issue 39, Low: a team disqualified before its first submission could be left (and, emptied,
  // deleted), and its members start afresh in a new team.
  it("keeps its members: none may leave it, submitted or not", async () => {
    const c = await liveCompetition();
    const { user, team } = await player(c.slug, "Caught early");
    await setDisqualified(c.owner, c.slug, team.id, { reason: "a second account" });
    const left = await rejection(leaveTeam(user, c.slug));
    expect([left.status, left.message]).toEqual([409, 'your team was disqualified by the organizers ("a second account"); its members cannot leave it']);
    expect((await getMyTeam(user, c.slug))!.disqualified).toMatchObject({ reason: "a second account" });
    expect((await rejection(createTeam(user, c.slug, { name: "A fresh start", acceptRules: true }))).message).toBe("you are already in a team in this competition");
  });
});
