import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { lastMailTo, linkIn } from "@/scripts/support/caught-mail";
import { APP_URL, api, newCompetitor, postCsv, publishedCompetition, signInWithCookies } from "./helpers";

// Issue 41's hostile pass (F7): the access rules an organizer sets after teams joined (verified
// addresses, email domains, approval) decide who may submit and who a merge may bring together,
// through the real server: the rule of joining, checked again.

type Player = Awaited<ReturnType<typeof newCompetitor>>;

async function setAccess(slug: string, organizer: { authorization: string }, access: Record<string, unknown>) {
  const answer = await api(`/api/v1/competitions/${slug}`, { method: "PATCH", body: { access }, headers: organizer });
  expect(answer.status).toBe(200);
}

async function verify(player: Player) {
  const token = linkIn(await lastMailTo(player.email, /Verify your email/), "/verify-email?token=").searchParams.get("token");
  expect((await api("/api/v1/email-verification", { method: "POST", body: { token } })).status).toBe(200);
}

/** What a submission spends of a team: its budget, its count, its scored queries and today's cap. */
async function spent(slug: string, player: Player) {
  const team = await player.call(`/api/v1/competitions/${slug}/team`);
  return { budget: team.budget, submissions: team.submissions, scored: team.scored, limits: team.limits };
}

async function submit(slug: string, player: Player, seed: string) {
  const answer = await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed }), player.auth);
  return { status: answer.status, body: await answer.json() };
}

describe("access rules set after a team joined", () => {
  it("refuse a submission (403 naming the rule, nothing spent) until the member meets them: approval, a verified address, a domain", { timeout: 120_000 }, async () => {
    const { slug, organizer } = await publishedCompetition();
    const player = await newCompetitor(slug);
    const before = await spent(slug, player);

    await setAccess(slug, organizer, { approval: true });
    const unapproved = await submit(slug, player, "approval");
    expect([unapproved.status, unapproved.body.error]).toEqual([
      403,
      {
        code: "approval_required",
        message: "the organizers approve who takes part in this competition: ask to take part first (POST …/registrations, or the button on the competition's page)",
      },
    ]);
    expect(await spent(slug, player)).toEqual(before);
    // The Team tab tells the member which rule now turns them away, with the button that asks.
    const session = await signInWithCookies(player.email, player.password);
    const teamTab = async () => (await fetch(`${APP_URL}/competitions/${slug}/team`, { headers: { cookie: session.cookie() } })).text();
    const shutOut = await teamTab();
    expect(shutOut).toMatch(/your submissions are refused until you meet them: (<!-- -->)?the organizers approve who takes part in this competition/);
    expect(shutOut).toContain("Ask to take part");
    await player.call(`/api/v1/competitions/${slug}/registrations`, { method: "POST" });
    const { registrations } = await (await api(`/api/v1/competitions/${slug}/registrations`, { headers: organizer })).json();
    const mine = registrations.find((r: { user: { email: string } }) => r.user.email === player.email);
    expect((await api(`/api/v1/competitions/${slug}/registrations/${mine.id}`, { method: "PUT", body: { status: "approved" }, headers: organizer })).status).toBe(200);
    expect((await submit(slug, player, "approved")).status).toBe(201);
    expect(await teamTab()).not.toContain('data-testid="rules-shut-out"');

    await setAccess(slug, organizer, { requireVerifiedEmail: true });
    const afterOne = await spent(slug, player);
    const unverified = await submit(slug, player, "unverified");
    expect([unverified.status, unverified.body.error]).toEqual([
      403,
      { code: "email_unverified", message: "this competition admits verified addresses only: open the link we mailed you (or send it again from your account page)" },
    ]);
    expect(await spent(slug, player)).toEqual(afterOne);
    await verify(player);
    expect((await submit(slug, player, "verified")).status).toBe(201);

    await setAccess(slug, organizer, { allowedEmailDomains: ["uni.edu"] });
    const afterTwo = await spent(slug, player);
    const elsewhere = await submit(slug, player, "domain");
    expect([elsewhere.status, elsewhere.body.error]).toEqual([403, { code: "domain_not_allowed", message: "this competition admits addresses at uni.edu only" }]);
    expect(await spent(slug, player)).toEqual(afterTwo);
  });
});

describe("merges under the access rules", () => {
  it("bring together only members who meet the rules now: refused when asked and when accepted, naming the team and the rule", { timeout: 120_000 }, async () => {
    const { slug, organizer } = await publishedCompetition();
    const [a, b] = [await newCompetitor(slug), await newCompetitor(slug)];
    await setAccess(slug, organizer, { requireVerifiedEmail: true });
    await verify(a);
    // Team b's member joined before the rule and never verified: asking to absorb b is refused.
    const asked = await api(`/api/v1/competitions/${slug}/teams/merge`, { method: "POST", body: { inviteCode: b.team.inviteCode }, headers: a.auth });
    expect([asked.status, (await asked.json()).error]).toEqual([
      409,
      {
        code: "conflict",
        message: `a member of team ${b.team.name} lacks the verified address this competition asks for; every member of a merged team must meet its access rules, so the teams cannot merge`,
      },
    ]);
    await verify(b);
    const request = await a.call(`/api/v1/competitions/${slug}/teams/merge`, { json: { inviteCode: b.team.inviteCode } });
    // A rule set between the request and its answer: checked again when accepted, for both teams.
    await setAccess(slug, organizer, { requireVerifiedEmail: true, approval: true });
    const accepted = await api(`/api/v1/competitions/${slug}/teams/merge-requests/${request.id}/accept`, { method: "POST", headers: b.auth });
    expect([accepted.status, (await accepted.json()).error.message]).toEqual([
      409,
      `a member of team ${a.team.name} lacks the organizers' approval this competition asks for; every member of a merged team must meet its access rules, so the teams cannot merge`,
    ]);
    expect((await b.call(`/api/v1/competitions/${slug}/team`)).mergeRequests.incoming.map((r: { id: string }) => r.id)).toEqual([request.id]);
    await setAccess(slug, organizer, { requireVerifiedEmail: true });
    const merged = await api(`/api/v1/competitions/${slug}/teams/merge-requests/${request.id}/accept`, { method: "POST", headers: b.auth });
    expect([merged.status, (await merged.json()).members.length]).toEqual([200, 2]);
  });
});
