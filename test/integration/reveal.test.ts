import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createReplay } from "@/lib/mechanism/replay";
import { secretCommitment } from "@/lib/mechanism/commitment";
import { closeCompetition } from "@/lib/server/closing/finals";
import { getReveal, revealCompetition, revealedSolution, revealedTranscript } from "@/lib/server/closing/reveal";
import { requireOrganizer, toPublicDetails } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { submit } from "@/lib/server/scoring/submit";
import { createTeam } from "@/lib/server/teams/teams";
import { demoPredictionsCsv, demoSolutionCsv } from "@/prisma/demo-solution";
import { lastMailTo } from "@/scripts/support/caught-mail";
import { newUser, publishedCompetition, rejection, stream } from "@/test/support/factories";

// The commitment at publishing and the reveal after the close (docs/mechanism.md §2.10).

describe("a competition's commitment and reveal", () => {
  it("commits to the solution's bytes and to the secret with its settings; mails them to the organizers; reveals them with every answer only once closed, and only at the organizers' word", async () => {
    const { owner, slug, id } = await publishedCompetition({ settings: { dailySubmissionLimit: 100 } });
    const details = toPublicDetails(await requireOrganizer(owner, slug));
    const { secret, committedSettings } = await db.competition.findUniqueOrThrow({ where: { id }, select: { secret: true, committedSettings: true } });
    expect(details.commitment).toEqual({
      solution: createHash("sha256").update(demoSolutionCsv()).digest("hex"),
      secret: secretCommitment(secret, committedSettings!),
      publishedAt: details.publishedAt,
    });
    expect(JSON.parse(committedSettings!)).toEqual({
      metric: "accuracy",
      metricParams: {},
      correlation: { kind: "independent" },
      sigma: 0.01,
      threshold: 0.04,
      answerDecimals: expect.any(Number),
    });
    const mail = await lastMailTo(owner.email, /is published/);
    expect(mail.text).toContain(details.commitment!.solution);
    expect(mail.text).toContain(details.commitment!.secret);

    const player = await newUser();
    await createTeam(player, slug, { name: "Revealed", acceptRules: true });
    for (let k = 0; k < 3; k++) await submit(player, slug, stream(demoPredictionsCsv({ skill: 0.6 + k * 0.05, seed: `r${k}` })));

    expect((await rejection(getReveal(null, slug))).status).toBe(404);
    expect((await rejection(revealCompetition(owner, slug))).status).toBe(409);
    await closeCompetition(owner, slug);
    expect((await rejection(getReveal(null, slug))).status).toBe(404); // closed, not revealed: the default stays private
    expect((await rejection(revealCompetition(player, slug))).status).toBe(403);
    const revealedAt = (await revealCompetition(owner, slug)).revealedAt;
    expect((await revealCompetition(owner, slug)).revealedAt).toEqual(revealedAt); // once

    const reveal = await getReveal(null, slug);
    expect(reveal).toMatchObject({ commitment: details.commitment, secret: Buffer.from(secret).toString("hex"), settings: committedSettings, transcript: { queries: 3 } });
    const solution = await revealedSolution(null, slug);
    expect(await new Response(solution.body).text()).toBe(demoSolutionCsv());
    expect(solution.size).toBe(Buffer.byteLength(demoSolutionCsv()));
    const lines = (await new Response(await revealedTranscript(null, slug)).text()).trim().split("\r\n");
    expect(lines[0]).toBe("submission_id,team_id,team,stream,query_index,position,created_at,kind,public_value,holdout_value,answer,budget_before,budget_after");
    expect(lines).toHaveLength(4);
    // The transcript replays exactly from the revealed secret.
    const replay = createReplay({ ...reveal.mechanism, budget: 0 }, Buffer.from(reveal.secret, "hex"));
    for (const line of lines.slice(1)) {
      const [submission, , , streamTeam, index, position, , kind, publicValue, holdoutValue, answer, before, after] = line.split(",");
      replay.add({
        id: submission,
        streamTeamId: streamTeam,
        queryIndex: Number(index),
        position: Number(position),
        kind,
        answer: answer === "" ? null : Number(answer),
        budgetBefore: Number(before),
        budgetAfter: Number(after),
        publicValue: Number(publicValue),
        holdoutValue: Number(holdoutValue),
      });
    }
    expect(replay.report).toEqual({ queries: 3, mismatches: 0, examples: [] });
  });
});
