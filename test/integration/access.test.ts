import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decideRegistration, requestRegistration } from "@/lib/server/competitions/access";
import { getAttachment, addAttachment } from "@/lib/server/competitions/attachments";
import { getVisibleCompetition, requireOrganizer } from "@/lib/server/competitions/competitions";
import { updateCompetition } from "@/lib/server/competitions/settings";
import { db } from "@/lib/server/platform/db";
import { verifyEmail } from "@/lib/server/accounts/email-links";
import { submit } from "@/lib/server/scoring/submit";
import { sybilSignals } from "@/lib/server/boards/sybil";
import { createTeam, joinTeam } from "@/lib/server/teams/teams";
import { registerUser, type PublicUser } from "@/lib/server/accounts/users";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { lastMailTo, linkIn } from "@/scripts/support/caught-mail";
import { publishedCompetition, rejection, stream, tag } from "@/test/support/factories";
import { updateCompetitionSchema } from "@/lib/validation/competitions";

const user = (domain = "example.com", client = "test-client"): Promise<PublicUser> =>
  registerUser({ email: `acc-${tag()}@${domain}`, password: "a long enough password", name: `Player ${tag()}` }, client);

function live() {
  return publishedCompetition({ settings: { dailySubmissionLimit: 50 } });
}

async function code(promise: Promise<unknown>): Promise<string> {
  const error = await rejection(promise);
  expect(error.status).toBe(403);
  return error.code;
}

describe("competition access rules", () => {
  it("checks verified address, allowed domains and approval when creating or joining a team, editable after publishing", async () => {
    const { owner, slug } = await live();
    expect((await updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: { requireVerifiedEmail: true, allowedEmailDomains: ["uni.edu"] } }))).access).toEqual({
      requireVerifiedEmail: true,
      allowedEmailDomains: ["uni.edu"],
      approval: false,
    });
    await expect(updateCompetition(owner, slug, updateCompetitionSchema.parse({ maxTeamSize: 9 }))).rejects.toThrow("maxTeamSize cannot change once the competition is published");

    const outsider = await user("gmail.com");
    const student = await user("cs.uni.edu");
    expect(await code(createTeam(student, slug, { name: "Students", acceptRules: true }))).toBe("email_unverified");
    await verifyEmail({ token: linkIn(await lastMailTo(student.email), "/verify-email?token=").searchParams.get("token")! });
    await verifyEmail({ token: linkIn(await lastMailTo(outsider.email), "/verify-email?token=").searchParams.get("token")! });
    expect(await code(createTeam(outsider, slug, { name: "Outsiders", acceptRules: true }))).toBe("domain_not_allowed");
    const { inviteCode } = await createTeam(student, slug, { name: "Students", acceptRules: true });
    expect(await code(joinTeam(outsider, slug, { inviteCode }))).toBe("domain_not_allowed");

    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: { approval: true } })); // replaces the rules as a whole
    const applicant = await user();
    expect(await code(createTeam(applicant, slug, { name: "Applicants", acceptRules: true }))).toBe("approval_required");
    const competition = await getVisibleCompetition(owner, slug);
    expect(await requestRegistration(applicant, competition)).toEqual({ status: "pending", created: true });
    expect(await requestRegistration(applicant, competition)).toEqual({ status: "pending", created: false });
    expect(await code(createTeam(applicant, slug, { name: "Applicants", acceptRules: true }))).toBe("approval_required");
    const registration = await db.registration.findFirstOrThrow({ where: { competitionId: competition.id, userId: applicant.id } });
    await decideRegistration(await requireOrganizer(owner, slug), registration.id, { status: "approved" });
    expect((await lastMailTo(applicant.email, /You may take part/)).text).toContain(`/competitions/${slug}`);
    expect((await createTeam(applicant, slug, { name: "Applicants", acceptRules: true })).name).toBe("Applicants");
  });

  // Issue 39, Low: a domain rule without "verified only" admitted anyone who typed an address at
  // the domain. A domain says something about a person only once the address is proven.
  it('admits an address at an allowed domain only once it is verified, with or without "verified only"', async () => {
    const { owner, slug } = await live();
    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: { allowedEmailDomains: ["uni.edu"] } }));
    const client = `domains-${tag()}`; // its own sign-up limit: the integration tests share the database
    const claimed = await user("uni.edu", client);
    const refused = await rejection(createTeam(claimed, slug, { name: "Claimed", acceptRules: true }));
    expect([refused.status, refused.code, refused.message]).toEqual([
      403,
      "email_unverified",
      "this competition admits addresses at uni.edu once they are verified: open the link we mailed you (or send it again from your account page)",
    ]);
    await verifyEmail({ token: linkIn(await lastMailTo(claimed.email), "/verify-email?token=").searchParams.get("token")! });
    expect((await createTeam(claimed, slug, { name: "Claimed", acceptRules: true })).name).toBe("Claimed");
    // Without a domain rule, an unverified address is as welcome as before.
    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: {} }));
    expect((await createTeam(await user("gmail.com", client), slug, { name: "Anyone", acceptRules: true })).name).toBe("Anyone");
  });

  it("lets only organizers and team members who meet the rules download the data files", async () => {
    const { owner, slug } = await live();
    const file = await addAttachment(owner, slug, stream("a,b\n1,2\n"), async () => ({ name: "train.csv", contentType: "text/csv", description: null }));
    const download = await getAttachment(owner, slug, file.id);
    expect(download).toMatchObject({ filename: "train.csv", contentType: "text/csv", size: 8 });
    expect(await new Response(await download.open()).text()).toBe("a,b\n1,2\n");
    await expect(getAttachment(null, slug, file.id)).rejects.toThrow("sign in and join a team");
    const player = await user();
    await expect(getAttachment(player, slug, file.id)).rejects.toThrow("accept the rules (create or join a team) to download the data");
    await createTeam(player, slug, { name: "Readers", acceptRules: true });
    expect((await getAttachment(player, slug, file.id)).filename).toBe("train.csv");
    await updateCompetition(owner, slug, updateCompetitionSchema.parse({ access: { requireVerifiedEmail: true } }));
    expect(await code(getAttachment(player, slug, file.id))).toBe("email_unverified");
  });
});

describe("signals of one person behind several teams", () => {
  it("groups accounts from one address within a day in different teams, and finds near-identical submissions", async () => {
    const { slug } = await live();
    const address = `198.51.100.${randomBytes(1)[0]}`;
    const [a, b, c] = await Promise.all([user("example.com", address), user("example.com", address), user()]);
    await createTeam(a, slug, { name: "Alpha", acceptRules: true });
    await createTeam(b, slug, { name: "Bravo", acceptRules: true });
    await createTeam(c, slug, { name: "Charlie", acceptRules: true });
    const same = demoPredictionsCsv({ skill: 0.7, seed: "shared" });
    await submit(a, slug, new Response(same).body);
    await submit(b, slug, new Response(same).body);
    await submit(c, slug, new Response(demoPredictionsCsv({ skill: 0.7, seed: "own" })).body);
    const competition = await getVisibleCompetition(null, slug);
    const signals = await sybilSignals(competition);
    expect(signals.sameAddress).toHaveLength(1);
    expect(signals.sameAddress[0].accounts.map((x) => x.team).sort()).toEqual(["Alpha", "Bravo"]);
    expect(JSON.stringify(signals)).not.toContain(address);
    expect(signals.nearIdentical).toEqual([{ teams: ["Alpha", "Bravo"], agreement: 1 }]);
  });
});
