import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/server/platform/db";
import { log } from "@/lib/server/platform/log";
import { warmScoring } from "@/lib/server/scoring/warm";
import { publishedCompetition } from "@/test/support/factories";

/** Rows of every table a submission or its checks could write. */
async function written() {
  const [submissions, files, teams, members, limits] = await Promise.all([
    db.submission.count(),
    db.submissionFile.count(),
    db.team.count(),
    db.teamMember.count(),
    db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM rate_limits`,
  ]);
  return { submissions, files, teams, members, limits: limits[0].n };
}

describe("the scoring warm-up", () => {
  it("runs the upload path and each live competition's checks, refused before any write, and warns of nothing", async () => {
    await publishedCompetition();
    const warn = vi.spyOn(log, "warn");
    const info = vi.spyOn(log, "info");
    const before = await written();
    await warmScoring();
    expect(await written()).toEqual(before);
    expect(warn).not.toHaveBeenCalled();
    const [summary] = info.mock.calls.filter(([, message]) => message === "scoring warmed up");
    expect((summary[0] as { solutions: number }).solutions).toBeGreaterThanOrEqual(1);
  });
});
