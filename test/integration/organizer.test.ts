import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { setCorrelation, setMechanism, publishCompetition, previewMechanism } from "@/lib/server/calibration";
import { createCompetition, getVisibleCompetition, inviteOrganizer, requireOrganizer } from "@/lib/server/competitions";
import { closeCompetition } from "@/lib/server/leaderboard";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { loadSolution, uploadSolution } from "@/lib/server/solutions";
import { createUser, type PublicUser } from "@/lib/server/users";
import { demoSolutionCsv } from "@/prisma/demo-solution";

const tag = () => randomBytes(5).toString("hex");
const user = (): Promise<PublicUser> => createUser({ email: `org-${tag()}@example.com`, password: "organizer password", name: "Org" });
const body = (text: string) => new Response(text).body;
const future = new Date(Date.now() + 30 * 86_400_000).toISOString();

async function draft(owner: PublicUser, metric = "accuracy") {
  return createCompetition(owner, { slug: `c-${tag()}`, title: "Test competition", metric: { name: metric }, endsAt: future });
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => null, (e) => e);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("solution upload", () => {
  it("stores the columns compactly and decodes them back exactly", async () => {
    const owner = await user();
    const c = await draft(owner);
    const csv = 'id,label,split,order,group,state\r\n"a,1",cat,public,2,g1,s1\na2,dog,holdout,1,g1,s2\na3,cat,holdout,3,g2,s1\n';
    expect(await uploadSolution(owner, c.slug, body(csv))).toMatchObject({ rows: 3, public: 1, holdout: 2 });
    const s = (await loadSolution(c.id))!;
    expect(s.ids).toEqual(["a,1", "a2", "a3"]);
    expect(s.classes).toEqual(["cat", "dog"]);
    expect(Array.from(s.labels)).toEqual([0, 1, 0]);
    expect(Array.from(s.split)).toEqual([0, 1, 1]);
    expect(Array.from(s.order!)).toEqual([2, 1, 3]);
    expect(s.groups!.names).toEqual(["g1", "g2"]);
    expect(s.states!.names).toEqual(["s1", "s2"]);
    expect(await db.solution.count({ where: { competitionId: c.id } })).toBe(1);
  });

  it("rejects a bad file with every problem's line and keeps the previous solution", async () => {
    const owner = await user();
    const c = await draft(owner, "brier");
    await uploadSolution(owner, c.slug, body("id,label,split\nx,1,public\ny,0,holdout\n"));
    const bad = "id,label,split\na,1,public\na,0,holdout\nb,0.5,holdout\nc,x,holdout\nd,1,test\n";
    const error = await rejection(uploadSolution(owner, c.slug, body(bad)));
    expect(error.status).toBe(422);
    expect(error.details).toEqual([
      { line: 3, message: 'duplicate id "a" (first on line 2)' },
      { line: 4, message: 'label must be 0 or 1 for this metric, found "0.5"' },
      { line: 5, message: 'label must be a number, found "x"' },
      { line: 6, message: 'split must be public or holdout, found "test"' },
    ]);
    expect((await loadSolution(c.id))!.ids).toEqual(["x", "y"]);
  });

  it("names a missing column and an empty split", async () => {
    const owner = await user();
    const c = await draft(owner);
    expect((await rejection(uploadSolution(owner, c.slug, body("id,label\na,1\n")))).message).toContain("line 1: missing column split");
    expect((await rejection(uploadSolution(owner, c.slug, body("id,label,split\na,1,public\n")))).message).toContain("the holdout split is empty");
  });
});

describe("correlation, mechanism, publish", () => {
  it("fits a Markov chain from the state column and plans the mechanism on the holdout", async () => {
    const owner = await user();
    const c = await draft(owner);
    await uploadSolution(owner, c.slug, body(demoSolutionCsv()));
    const summary = await setCorrelation(owner, c.slug, { model: { kind: "markov", fit: { alpha: 1 } } });
    expect("chain" in summary && summary.chain?.stateNames).toEqual(["high", "low", "mid"]);
    expect("chain" in summary && summary.chain?.chains).toBe(60);
    const plan = await setMechanism(owner, c.slug, { mode: "practical", sigma: 0.02, threshold: 0.05, budget: 10 });
    expect(plan.budget).toBe(10);
    expect(plan.epsBdp).toBeGreaterThan(plan.epsDp);
    const preview = await previewMechanism(owner, c.slug, { mode: "guarantee", tolerance: 0.5, beta: 0.05 });
    expect(preview.curves.budgetByTolerance).toHaveLength(12);
    expect(preview.curves.budgetByCalibration.map((b) => b.label)).toEqual(["As if independent", "Lemma 4 (closed form)", "Exact quilts"]);

    const published = await publishCompetition(owner, c.slug);
    expect(published.status).toBe("published");
    expect((await rejection(uploadSolution(owner, c.slug, body(demoSolutionCsv())))).status).toBe(409);
    expect((await rejection(setMechanism(owner, c.slug, { mode: "practical", sigma: 0.1, threshold: 0.1, budget: 1 }))).status).toBe(409);
    expect((await closeCompetition(owner, c.slug)).status).toBe("closed");
  });

  it("will not publish without a solution or a mechanism", async () => {
    const owner = await user();
    const c = await draft(owner);
    expect((await rejection(publishCompetition(owner, c.slug))).message).toBe("configure the mechanism before publishing");
    expect((await rejection(setMechanism(owner, c.slug, { mode: "practical", sigma: 0.02, threshold: 0.05, budget: 10 }))).message).toContain("upload the solution first");
  });
});

describe("who may manage", () => {
  it("hides a draft from strangers (404), forbids them once public (403), lets co-organizers in", async () => {
    const owner = await user();
    const stranger = await user();
    const helper = await user();
    const c = await draft(owner);
    expect((await rejection(requireOrganizer(stranger, c.slug))).status).toBe(404);
    expect((await rejection(getVisibleCompetition(null, c.slug))).status).toBe(404);
    await inviteOrganizer(owner, c.slug, { email: helper.email });
    expect((await requireOrganizer(helper, c.slug)).id).toBe(c.id);
    await uploadSolution(helper, c.slug, body(demoSolutionCsv()));
    await setMechanism(helper, c.slug, { mode: "practical", sigma: 0.02, threshold: 0.05, budget: 10 });
    await publishCompetition(helper, c.slug);
    expect((await rejection(requireOrganizer(stranger, c.slug))).status).toBe(403);
    expect((await getVisibleCompetition(null, c.slug)).organizer).toBe(false);
  });
});
