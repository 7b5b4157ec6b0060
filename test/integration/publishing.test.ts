import { describe, expect, it } from "vitest";
import { previewMechanism, setCorrelation, setMechanism } from "@/lib/server/competitions/calibration";
import { createCompetition, requireOrganizer } from "@/lib/server/competitions/competitions";
import { getPublishChecklist, publishCompetition } from "@/lib/server/competitions/publish";
import { uploadSolution } from "@/lib/server/competitions/solutions";
import { demoSolutionCsv } from "@/prisma/demo-solution";
import { newUser, rejection, stream, tag } from "@/test/support/factories";
import { createCompetitionSchema } from "@/lib/validation/competitions";

// Organizers see the truth before they publish (docs/operating.md, Publishing): the correlation
// model follows what the solution declares, a new competition runs the recommended settings, and
// publishing a void promise or a model that ignores declared groups or states needs an explicit
// acknowledgment.

async function newDraft() {
  const owner = await newUser("owner");
  const slug = `p-${tag()}`;
  const competition = await createCompetition(
    owner,
    createCompetitionSchema.parse({ slug, title: "Publishing", metric: { name: "accuracy" }, endsAt: new Date(Date.now() + 30 * 86_400_000).toISOString() }),
  );
  return { owner, slug, competition };
}

// The demo's solution (id,label,split,order,group,state) cut to its first k columns: without the state column (5), without either (3).
const firstColumns = (csv: string, k: number) =>
  csv
    .trim()
    .split("\n")
    .map((line) => line.split(",").slice(0, k).join(","))
    .join("\n");

describe("defaults that tell the truth", () => {
  it("a new competition runs the recommended settings with 20 holdout checks per team", async () => {
    const { competition } = await newDraft();
    expect(competition.mechanism).toEqual({ mode: "recommended", budget: 20 });
  });

  it("the correlation model follows what the solution declares: states and groups a fitted chain, groups alone groups, neither independent rows", async () => {
    const { owner, slug } = await newDraft();
    await uploadSolution(owner, slug, stream(demoSolutionCsv()));
    expect((await requireOrganizer(owner, slug)).correlation).toEqual({ kind: "markov", fit: { alpha: 1 } });
    // A file without a state column cannot be fitted: the model follows the new file.
    await uploadSolution(owner, slug, stream(firstColumns(demoSolutionCsv(), 5)));
    expect((await requireOrganizer(owner, slug)).correlation).toEqual({ kind: "groups" });
    await uploadSolution(owner, slug, stream(firstColumns(demoSolutionCsv(), 3)));
    expect((await requireOrganizer(owner, slug)).correlation).toBeNull();
    // A model the organizer chose stays while the file can still resolve it.
    await setCorrelation(owner, slug, { model: { kind: "independent" } });
    await uploadSolution(owner, slug, stream(demoSolutionCsv()));
    expect((await requireOrganizer(owner, slug)).correlation).toEqual({ kind: "independent" });
  });
});

describe("publishing a void promise needs an acknowledgment", () => {
  it("a model that ignores declared groups and states: listed in words, refused with the codes until acknowledged", async () => {
    const { owner, slug } = await newDraft();
    await setCorrelation(owner, slug, { model: { kind: "independent" } });
    await uploadSolution(owner, slug, stream(demoSolutionCsv()));
    const checklist = await getPublishChecklist(owner, slug);
    expect(checklist.ready).toBe(true);
    const codes = checklist.acknowledgments.map((a) => a.code);
    expect(codes.slice(0, 2)).toEqual(["model_ignores_groups", "model_ignores_states"]);
    expect(checklist.acknowledgments[0].message).toMatch(/^The solution declares 60 groups, but the correlation model is independent rows/);
    const refused = await rejection(publishCompetition(owner, slug));
    expect([refused.status, refused.code, refused.details]).toEqual([409, "acknowledgment_required", codes]);
    expect(refused.message).toContain(`{"acknowledge": [${codes.map((c) => `"${c}"`).join(", ")}]}`);
    // One acknowledgment is not all of them.
    expect((await rejection(publishCompetition(owner, slug, { acknowledge: ["model_ignores_groups"] }))).details).toEqual(codes.slice(1));
    // An unknown code is invalid input, refused where the request is parsed (422 naming acknowledge: test/e2e/api-organizer.test.ts).
    expect((await publishCompetition(owner, slug, { acknowledge: codes })).status).toBe("published");
  });

  it("no guarantee at these settings: the plan says what would make one hold, and publishing asks", async () => {
    const { owner, slug } = await newDraft();
    await uploadSolution(owner, slug, stream(demoSolutionCsv()));
    // Dwork et al.'s σ = 0.01, T = 0.04 on 1,536 holdout rows: no formal guarantee.
    await setMechanism(owner, slug, { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 20 });
    const { plan } = await previewMechanism(owner, slug, { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 20 });
    expect(plan.guarantee.holds).toBe(false);
    expect(plan.remedies.map((r) => r.change)).toContain("holdout");
    const holdout = plan.remedies.find((r) => r.change === "holdout")!;
    expect(holdout.to).toBeGreaterThan(1536);
    expect(holdout.text).toMatch(/^A holdout of about [\d,]+ rows \(1,536 now\)/);
    const checklist = await getPublishChecklist(owner, slug);
    expect(checklist.acknowledgments.map((a) => a.code)).toEqual(["no_guarantee"]);
    expect(checklist.acknowledgments[0].message).toContain("Competitors will read that no formal guarantee covers their scores.");
    expect((await rejection(publishCompetition(owner, slug))).details).toEqual(["no_guarantee"]);
    expect((await publishCompetition(owner, slug, { acknowledge: ["no_guarantee"] })).status).toBe("published");
  });
});
