import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDatabaseIfMissing, dropDatabase } from "@/scripts/db/admin";
import { migrate } from "@/server/migrate";

// The seed runs through the app's services on a database of its own.
const name = `seed_${randomBytes(4).toString("hex")}`;
const admin = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: "/postgres" }).toString();
const url = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString();

beforeAll(async () => {
  await createDatabaseIfMissing(admin, name);
  await migrate(url);
  process.env.DATABASE_URL = url;
});
afterAll(async () => {
  const { db } = await import("@/lib/server/platform/db");
  await db.$disconnect();
  await dropDatabase(admin, name);
});

it("seeds the demo accounts with their printed passwords and a configured, published competition with its data files, once", async () => {
  const { DEMO_ACCOUNTS, DEMO_HOUSEHOLDS, DEMO_SLUG, needsSeed, seed } = await import("@/prisma/seed");
  const { db } = await import("@/lib/server/platform/db");
  const { authenticate } = await import("@/lib/server/accounts/users");
  expect(await needsSeed()).toBe(true);
  await seed();
  expect(await needsSeed()).toBe(false);
  const users = await db.user.findMany({ orderBy: { email: "asc" }, select: { email: true, role: true } });
  expect(users).toEqual([
    { email: "admin@quiltboard.test", role: "admin" },
    { email: "alice@quiltboard.test", role: "user" },
    { email: "bob@quiltboard.test", role: "user" },
  ]);
  for (const account of DEMO_ACCOUNTS) expect((await authenticate(account.email, account.password, "test-client"))?.user.email).toBe(account.email);
  const competition = await db.competition.findUniqueOrThrow({ where: { slug: DEMO_SLUG }, include: { solution: { select: { rows: true } }, organizers: true } });
  expect(competition.status).toBe("published");
  expect(competition.solution?.rows).toBe(DEMO_HOUSEHOLDS * 48);
  expect(competition.organizers).toHaveLength(1);
  expect(competition.correlation).toEqual({ kind: "markov", fit: { alpha: 1 } });
  // The recommended settings (σ ≈ T/32, two significant figures) on this holdout, and a per-team guarantee the page can state.
  expect(competition.mechanism).toEqual({ mode: "recommended", budget: 10 });
  expect(competition.budget).toBe(10);
  expect(competition.threshold! / competition.sigma!).toBeGreaterThanOrEqual(32);
  expect(competition.threshold! / competition.sigma!).toBeLessThan(34);
  expect(competition.threshold).toBeGreaterThan(0.005);
  expect(competition.threshold).toBeLessThan(0.02);
  const { getGuaranteeSummary } = await import("@/lib/server/competitions/plans");
  const { COMPETITION_SELECT } = await import("@/lib/server/competitions/competitions");
  const summary = (await getGuaranteeSummary(await db.competition.findUniqueOrThrow({ where: { id: competition.id }, select: COMPETITION_SELECT })))!;
  expect(summary.team.holds).toBe(true);
  // What a Kaggle user finds useful: a team never checked is promised ±0.03 or better on every score, ±0.06 whatever it does.
  expect(summary.team.byChecks.map((c) => c.checks)).toEqual([0, 1, 5, 10]);
  expect(summary.team.byChecks[0].bound).toBeLessThanOrEqual(0.03);
  expect(summary.team.tolerance).toBeLessThan(0.06);
  expect(summary.honestCharges).toBeLessThan(0.1);
  expect(competition.secret).toHaveLength(32);
  const teams = await db.team.findMany({
    where: { competitionId: competition.id },
    orderBy: { name: "asc" },
    select: { name: true, submissionCount: true, budgetRemaining: true },
  });
  expect(teams.map((t) => [t.name, t.submissionCount])).toEqual([
    ["Gradient Gliders", 3],
    ["Overfit Otters", 4],
  ]);
  // Bob's files are perfect on the public split and a coin flip on the holdout: charged every time.
  expect(teams[1].budgetRemaining).toBe(10 - 4);

  // The data files: test.csv and sample_submission.csv list exactly the solution's ids, train.csv
  // other households with their labels.
  const { loadSolution } = await import("@/lib/server/competitions/solutions");
  const { fileStore } = await import("@/lib/server/platform/files");
  const solution = (await loadSolution(competition.id))!;
  const files = Object.fromEntries(
    await Promise.all(
      (await db.attachment.findMany({ where: { competitionId: competition.id }, select: { filename: true, storageKey: true } })).map(async (f) => [
        f.filename,
        await new Response(await fileStore().get(f.storageKey!)).text(),
      ]),
    ),
  );
  expect(Object.keys(files).sort()).toEqual(["sample_submission.csv", "test.csv", "train.csv"]);
  const ids = (csv: string) =>
    csv
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(",")[0]);
  const solutionIds = solution.ids.toArray();
  expect(ids(files["test.csv"])).toEqual(solutionIds);
  expect(ids(files["sample_submission.csv"])).toEqual(solutionIds);
  expect(files["test.csv"].split("\n")[0]).toBe("id,household,hour,kwh");
  expect(files["train.csv"].split("\n")[0]).toBe("id,household,hour,kwh,spike");
  expect(ids(files["train.csv"]).filter((id) => solutionIds.includes(id))).toEqual([]);

  // The labels come from a seed drawn at first start, not from the repository's: a file built from
  // the repository's demo solution scores about a coin flip.
  const { demoSolutionCsv } = await import("@/prisma/demo-solution");
  const known = new Map(
    demoSolutionCsv(undefined, DEMO_HOUSEHOLDS)
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => [line.split(",")[0], line.split(",")[1]]),
  );
  const agree = solutionIds.filter((id, i) => solution.classes![solution.labels[i]] === known.get(id)).length / solutionIds.length;
  expect(agree).toBeLessThan(0.9);
});
