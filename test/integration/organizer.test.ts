import { describe, expect, it } from "vitest";
import { setCorrelation, setMechanism, previewMechanism } from "@/lib/server/competitions/calibration";
import { createCompetition, getVisibleCompetition, inviteOrganizer, requireOrganizer, isOrganizer } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { AppError } from "@/lib/server/platform/errors";
import { loadSolution, uploadSolution } from "@/lib/server/competitions/solutions";
import { type PublicUser } from "@/lib/server/accounts/users";
import { demoSolutionCsv } from "@/prisma/demo-solution";
import { deleteDraft } from "@/lib/server/competitions/lifecycle";
import { publishChecklist, publishCompetition } from "@/lib/server/competitions/publish";
import { closeCompetition } from "@/lib/server/boards/finals";
import { tag, newUser, rejection, draftCompetition, publishedCompetition } from "@/test/support/factories";

const body = (text: string) => new Response(text).body;

async function draft(owner: PublicUser, metric = "accuracy") {
  return (await draftCompetition({ owner, metric, days: 30 })).competition;
}

describe("solution upload", () => {
  it("stores the columns compactly and decodes them back exactly", async () => {
    const owner = await newUser();
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
    const owner = await newUser();
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
    const owner = await newUser();
    const c = await draft(owner);
    expect((await rejection(uploadSolution(owner, c.slug, body("id,label\na,1\n")))).message).toContain("line 1: missing column split");
    expect((await rejection(uploadSolution(owner, c.slug, body("id,label,split\na,1,public\n")))).message).toContain("the holdout split is empty");
  });
});

describe("correlation, mechanism, publish", () => {
  it("fits a Markov chain from the state column and plans the mechanism on the holdout", async () => {
    const owner = await newUser();
    const c = await draft(owner);
    await uploadSolution(owner, c.slug, body(demoSolutionCsv()));
    const summary = await setCorrelation(owner, c.slug, { model: { kind: "markov", fit: { alpha: 1 } } });
    expect("chain" in summary && summary.chain?.stateNames).toEqual(["high", "low", "mid"]);
    // One chain per household in the holdout (the demo splits by household).
    const holdoutHouseholds = new Set(
      demoSolutionCsv()
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(","))
        .filter((r) => r[2] === "holdout")
        .map((r) => r[4]),
    );
    expect("chain" in summary && summary.chain?.chains).toBe(holdoutHouseholds.size);
    expect(holdoutHouseholds.size).toBe(32);
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

  it("will not publish without a solution or a mechanism, and says everything that is missing at once", async () => {
    const owner = await newUser();
    const c = await draft(owner);
    const refused = await rejection(publishCompetition(owner, c.slug));
    expect(refused.message).toBe("upload the solution before publishing; configure the mechanism before publishing");
    expect(refused.details).toEqual((await publishChecklist(c)).checks);
    expect((await rejection(setMechanism(owner, c.slug, { mode: "practical", sigma: 0.02, threshold: 0.05, budget: 10 }))).message).toContain("upload the solution first");
  });

  it("lists what publishing needs, item by item, as each is put in place", async () => {
    const owner = await newUser();
    const c = await draft(owner);
    const items = async () => (await publishChecklist(await requireOrganizer(owner, c.slug), new Date(c.endsAt.getTime() + 1000))).checks.map((k) => [k.item, k.ok, k.detail]);
    expect(await items()).toEqual([
      ["deadline", false, "the end date has passed; move it to the future before publishing"],
      ["solution", false, "upload the solution before publishing"],
      ["correlation", true, "independent rows"],
      ["mechanism", false, "configure the mechanism before publishing"],
    ]);
    await uploadSolution(owner, c.slug, body(demoSolutionCsv()));
    await setMechanism(owner, c.slug, { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 20 });
    const now = await publishChecklist(await requireOrganizer(owner, c.slug));
    expect(now.ready).toBe(true);
    expect(now.checks.map((k) => k.detail)).toEqual([
      `closes ${c.endsAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
      "2,880 rows: 1,344 public, 1,536 holdout",
      "independent rows",
      "σ = 0.0100, T = 0.0400, budget 20",
    ]);
  });

  it("deletes a draft with everything it holds, and never a published competition", async () => {
    const owner = await newUser();
    const c = await draft(owner);
    await uploadSolution(owner, c.slug, body(demoSolutionCsv()));
    expect((await rejection(deleteDraft(await newUser(), c.slug))).status).toBe(404);
    await deleteDraft(owner, c.slug);
    expect(await db.competition.count({ where: { id: c.id } })).toBe(0);
    expect(await db.solution.count({ where: { competitionId: c.id } })).toBe(0);
    const live = await publishedCompetition({ owner });
    expect((await rejection(deleteDraft(owner, live.slug))).message).toBe("only a draft can be deleted: a published competition keeps its teams' submissions; close it instead");
  });

  it("a solution upload racing the publish either lands before it or is refused, and publishing never uses a replaced file", async () => {
    const rows = demoSolutionCsv().trim().split("\n");
    for (let round = 0; round < 4; round++) {
      const owner = await newUser();
      const c = await draft(owner);
      await uploadSolution(owner, c.slug, body(demoSolutionCsv()));
      await setMechanism(owner, c.slug, { mode: "practical", sigma: 0.02, threshold: 0.05, budget: 10 });
      const second = [...rows.slice(0, -1)].join("\n"); // one row fewer: a different file
      const [upload, publish] = await Promise.allSettled([uploadSolution(owner, c.slug, body(second)), publishCompetition(owner, c.slug)]);
      const after = await db.competition.findUniqueOrThrow({ where: { id: c.id }, select: { status: true } });
      if (upload.status === "rejected") expect((upload.reason as AppError).message).toBe("the solution cannot change once the competition is published");
      if (publish.status === "rejected") expect((publish.reason as AppError).message).toBe("the competition's settings changed while it was being published; publish again");
      expect(after.status).toBe(publish.status === "fulfilled" ? "published" : "draft");
      expect(upload.status === "fulfilled" || publish.status === "fulfilled").toBe(true);
    }
  });
});

describe("split integrity (docs/mechanism.md §2.6)", () => {
  // Households h0…h9 of 4 hourly rows; h0…h6 have rows in both splits, h7…h9 lie in one split.
  const cut = [
    "id,label,split,order,group,state",
    ...Array.from({ length: 40 }, (_, i) => {
      const h = Math.floor(i / 4);
      const split = h < 7 ? (i % 2 ? "public" : "holdout") : h % 2 ? "public" : "holdout";
      return `r${i},${i % 3 ? "yes" : "no"},${split},${i % 4},h${h},${i % 5 ? "a" : "b"}`;
    }),
  ].join("\n");

  it("warns at upload and refuses to publish under the groups and Markov models, naming how many groups and a few", async () => {
    const owner = await newUser();
    const c = await draft(owner);
    const uploaded = await uploadSolution(owner, c.slug, body(cut));
    expect(uploaded.warnings).toEqual([
      "7 groups have rows in both the public and the holdout split (h0, h1, h2, h3, h4, …): public scores are released exactly, so they would reveal those groups' holdout rows. Put every row of a group in the same split. Under the groups or Markov model this solution cannot be published.",
    ]);
    await setMechanism(owner, c.slug, { mode: "practical", sigma: 0.02, threshold: 0.05, budget: 1 });
    for (const model of [{ kind: "groups" }, { kind: "markov", fit: { alpha: 1 } }]) {
      await setCorrelation(owner, c.slug, { model });
      const refused = await rejection(publishCompetition(owner, c.slug));
      expect(refused.status).toBe(409);
      expect(refused.message).toMatch(/^the split cuts correlated rows: 7 groups have rows in both the public and the holdout split \(h0, h1, h2, h3, h4, …\)/);
    }
    expect((await db.competition.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("draft");
    // A split by group publishes.
    const byGroup = cut.replace(/,(public|holdout),(\d),h(\d)/g, (_, _s, o, h) => `,${Number(h) % 2 ? "public" : "holdout"},${o},h${h}`);
    expect((await uploadSolution(owner, c.slug, body(byGroup))).warnings).toEqual([]);
    expect((await publishCompetition(owner, c.slug)).status).toBe("published");
  });

  it("a Markov model without a group column is one chain over both splits: refused", async () => {
    const owner = await newUser();
    const c = await draft(owner);
    await uploadSolution(owner, c.slug, body(cut.replace(/,h\d+,/g, ",").replace("order,group,state", "order,state")));
    await setCorrelation(owner, c.slug, { model: { kind: "markov", fit: { alpha: 1 } } });
    await setMechanism(owner, c.slug, { mode: "practical", sigma: 0.02, threshold: 0.05, budget: 1 });
    expect((await rejection(publishCompetition(owner, c.slug))).message).toContain("without a group column all rows form one Markov chain");
  });
});

describe("the query cap m", () => {
  it("defaults to the daily cap × every UTC date a team can submit on, fixed at publishing", async () => {
    const owner = await newUser();
    const now = new Date();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    // From today (now) to 09:00 UTC the day after tomorrow: three dates, whatever the hour now.
    const c = await createCompetition(owner, {
      slug: `m-${tag()}`,
      title: "Three dates",
      metric: { name: "accuracy" },
      endsAt: new Date(today + 2 * 86_400_000 + 9 * 3_600_000).toISOString(),
      dailySubmissionLimit: 4,
    });
    await uploadSolution(owner, c.slug, body(demoSolutionCsv()));
    await setMechanism(owner, c.slug, { mode: "practical", sigma: 0.02, threshold: 0.05, budget: 10 });
    const published = await publishCompetition(owner, c.slug);
    expect(published.maxQueries).toBe(12);
  });
});

describe("who may manage", () => {
  it("hides a draft from strangers (404), forbids them once public (403), lets co-organizers in", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const helper = await newUser();
    const c = await draft(owner);
    expect((await rejection(requireOrganizer(stranger, c.slug))).status).toBe(404);
    expect((await rejection(getVisibleCompetition(null, c.slug))).status).toBe(404);
    await inviteOrganizer(owner, c.slug, { email: helper.email });
    expect((await requireOrganizer(helper, c.slug)).id).toBe(c.id);
    await uploadSolution(helper, c.slug, body(demoSolutionCsv()));
    await setMechanism(helper, c.slug, { mode: "practical", sigma: 0.02, threshold: 0.05, budget: 10 });
    await publishCompetition(helper, c.slug);
    expect((await rejection(requireOrganizer(stranger, c.slug))).status).toBe(403);
    expect((await getVisibleCompetition(null, c.slug)).id).toBe(c.id);
    expect([await isOrganizer(null, c.id), await isOrganizer(helper, c.id), await isOrganizer(stranger, c.id)]).toEqual([false, true, false]);
  });
});
