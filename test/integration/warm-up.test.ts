import { describe, expect, it, vi } from "vitest";
import { closeCompetition } from "@/lib/server/closing/finals";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { log } from "@/lib/server/platform/log";
import { warmScoring } from "@/lib/server/scoring/warm";
import { createTeam } from "@/lib/server/teams/teams";
import { newUser, publishedCompetition, stream, tag } from "@/test/support/factories";
import { demoPredictionsCsv } from "@/prisma/demo-solution";

// submit() as it is, watched: the warm-up's checks go through it.
vi.mock("@/lib/server/scoring/submit", async (original) => {
  const actual = await original<typeof import("@/lib/server/scoring/submit")>();
  return { ...actual, submit: vi.fn(actual.submit) };
});
const { submit } = await import("@/lib/server/scoring/submit");

describe("the scoring warm-up", () => {
  it("runs the checks of each live competition submitted to within the day as an account in no team, refused before anything is written, and warns of nothing", async () => {
    // Three states a live competition can be in: open, past its deadline before the scheduler closed
    // it, and closed with late submissions. Each has a team that submitted within the day, as a real
    // one would; `idle`'s team last submitted two days ago, and the warm-up leaves it alone.
    const open = await publishedCompetition();
    const pastDeadline = await publishedCompetition();
    const late = await publishedCompetition({ settings: { lateSubmissions: true } });
    const idle = await publishedCompetition();
    const ours = [open, pastDeadline, late];
    for (const c of [...ours, idle]) {
      const member = await newUser();
      await createTeam(member, c.slug, { name: `Team ${tag()}`, acceptRules: true });
      await submit(member, c.slug, stream(demoPredictionsCsv({ skill: 0.7, seed: c.slug })));
    }
    await db.team.updateMany({ where: { competitionId: idle.id }, data: { lastSubmissionAt: new Date(Date.now() - 2 * 86_400_000) } });
    await db.competition.update({ where: { id: pastDeadline.id }, data: { endsAt: new Date(Date.now() - 60_000) } });
    await closeCompetition(late.owner, late.slug);
    const ids = ours.map((c) => c.id);
    const written = async () => ({
      submissions: await db.submission.count({ where: { competitionId: { in: ids } } }),
      unranked: await db.unrankedSubmission.count({ where: { competitionId: { in: ids } } }),
      teams: await db.team.count({ where: { competitionId: { in: ids } } }),
      members: await db.teamMember.count({ where: { competitionId: { in: ids } } }),
    });
    const warn = vi.spyOn(log, "warn");
    const before = await written();

    await warmScoring();

    const { calls, results } = vi.mocked(submit).mock;
    const ourCalls = calls.flatMap(([user, slug, body], i) =>
      ours.some((c) => c.slug === slug) && user.email === "warm-up@quiltboard.invalid" ? [{ user, slug, body, result: results[i].value as Promise<unknown> }] : [],
    );
    expect(ourCalls.map((c) => c.slug).sort()).toEqual(ours.map((c) => c.slug).sort());
    expect(calls.filter(([user, slug]) => slug === idle.slug && user.email === "warm-up@quiltboard.invalid")).toEqual([]);
    const noOne = ourCalls[0].user.id;
    expect(ourCalls.every((c) => c.user.id === noOne && c.body === null)).toBe(true);
    const outcomes = await Promise.all(
      ourCalls.map((c) =>
        c.result.then(
          () => "answered",
          (e: AppError) => `${e.status} ${e.message}`,
        ),
      ),
    );
    expect(outcomes.sort()).toEqual([
      "403 join or create a team in this competition before submitting",
      "403 join or create a team in this competition before submitting",
      "409 this competition has closed",
    ]);
    expect(await written()).toEqual(before);
    expect(await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE ${`%${noOne}%`}`).toEqual([{ n: 0 }]);
    // Warnings about the warm-up as a whole, or about one of these competitions (other test files' competitions may be in any state).
    const about = (fields: unknown) => (fields as { competition?: string }).competition;
    expect(warn.mock.calls.filter(([fields]) => about(fields) === undefined || ours.some((c) => c.slug === about(fields)))).toEqual([]);
  });
});
