import { describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { api, APP_URL, newCompetitor, postCsv, publishedCompetition } from "./helpers";

// Teams through the REST API (docs/api.md, Teams and merges): a merge is a request the other team
// accepts, and a disqualified team can neither absorb nor be absorbed.
describe("merges through the API", () => {
  it("reproduces the red team's hostile merge and is refused; a consented merge moves the members and rotates the invite code", async () => {
    const { slug, organizer } = await publishedCompetition();
    const cheat = await newCompetitor(slug, "Cheat");
    const leader = await newCompetitor(slug, "Leader");
    expect((await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.9, seed: "leader" }), leader.auth)).status).toBe(201);
    await api(`/api/v1/competitions/${slug}/teams/${cheat.team.id}/disqualify`, { headers: organizer, body: { reason: "one person, two accounts" } });
    const hostile = await api(`/api/v1/competitions/${slug}/teams/merge`, { headers: cheat.auth, body: { inviteCode: leader.team.inviteCode } });
    expect(hostile.status).toBe(409);
    expect((await hostile.json()).error.message).toBe("team Cheat was disqualified by the organizers; it cannot merge");
    const told = await (await api(`/api/v1/competitions/${slug}/team`, { headers: cheat.auth })).json();
    expect(told.disqualified).toMatchObject({ reason: "one person, two accounts" });

    const partner = await newCompetitor(slug, "Partner");
    const asked = await api(`/api/v1/competitions/${slug}/teams/merge`, { headers: partner.auth, body: { inviteCode: leader.team.inviteCode } });
    expect(asked.status).toBe(201);
    const request = await asked.json();
    // Nothing happened yet: the leader still leads alone, and sees the request.
    const leaderTeam = await (await api(`/api/v1/competitions/${slug}/team`, { headers: leader.auth })).json();
    expect(leaderTeam.members).toHaveLength(1);
    expect(leaderTeam.mergeRequests.incoming).toEqual([
      { id: request.id, team: "Partner", teamId: partner.team.id, requestedBy: expect.any(String), createdAt: request.createdAt },
    ]);
    const accepted = await api(`/api/v1/competitions/${slug}/teams/merge-requests/${request.id}/accept`, { headers: leader.auth, body: {} });
    expect(accepted.status).toBe(200);
    const merged = await accepted.json();
    expect(merged).toMatchObject({ id: partner.team.id, name: "Partner", submissions: 1 });
    expect(merged.inviteCode).not.toBe(partner.team.inviteCode);
    const joinOld = await api(`/api/v1/competitions/${slug}/teams/join`, { headers: (await newCompetitor(slug)).auth, body: { inviteCode: leader.team.inviteCode } });
    expect(joinOld.status).toBe(409); // in a team already; and the code is dead either way
  });
});
