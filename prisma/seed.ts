// The demo data of `npm start`, created through the same services as the app: an admin, two
// competitors with a team each and scored submissions, and a published competition whose holdout
// (hourly readings of DEMO_HOUSEHOLDS households) is a Markov chain fitted from the solution's state
// column, with train, test and sample-submission files to download. It runs at the settings the
// planner recommends for honest teams, and its holdout is large enough for the per-team guarantee to
// hold (docs/mechanism.md §2.4). Its data come from a seed drawn at
// random here (prisma/demo-solution.ts), so the hidden labels cannot be rebuilt from the repository.
// Runs once, on an empty database, and only where `demoRequested` says so: the demo's passwords are
// published in the README, so a deployment never gets them unless it asks.
import { randomBytes } from "node:crypto";
import { setMechanism } from "@/lib/server/competitions/calibration";
import { createCompetition } from "@/lib/server/competitions/competitions";
import { db } from "@/lib/server/platform/db";
import { uploadSolution } from "@/lib/server/competitions/solutions";
import { createUser } from "@/lib/server/accounts/users";
import { submit } from "@/lib/server/scoring/submit";
import { createTeam } from "@/lib/server/teams/teams";
import { demoDataFiles, demoPredictionsCsv, demoSolutionCsv, HOURS, TRAIN_HOUSEHOLDS } from "./demo-solution";
import { addAttachment } from "@/lib/server/competitions/attachments";
import { publishCompetition } from "@/lib/server/competitions/publish";
import { parseEnvironment } from "@/lib/server/platform/env";
import { createCompetitionSchema } from "@/lib/validation/competitions";

export const DEMO_ACCOUNTS = [
  { email: "admin@quiltboard.test", name: "Ada Admin", password: "quiltboard-admin", role: "admin" as const },
  { email: "alice@quiltboard.test", name: "Alice Competitor", password: "quiltboard-alice", role: "user" as const },
  { email: "bob@quiltboard.test", name: "Bob Competitor", password: "quiltboard-bob", role: "user" as const },
];

export const DEMO_SLUG = "household-power-spikes";

/**
 * The demo's test households (48 readings each, about half in the holdout): enough that, at the
 * recommended settings, a team never checked on the holdout is promised about ±0.03 accuracy on every
 * score it is shown (docs/mechanism.md §2.8: n ≈ 144,000 holdout rows, N_c ≈ 0.54 n under the fitted
 * chain), and ±0.05 whatever it does.
 */
export const DEMO_HOUSEHOLDS = 6000;

/** The demo's overfitting budget: 10 holdout answers per team. */
const DEMO_BUDGET = 10;

const DESCRIPTION = `Predict whether a household's smart meter reports a **consumption spike** in a given hour.

Rows are hourly readings, many per household, so neighbouring rows are correlated: the holdout is
calibrated as one Markov chain per household over consumption states (low, mid, high), fitted from
the solution's \`state\` column.

Scores are released through Thresholdout: when your public score agrees with the holdout, you see the
public score and spend nothing; when it does not, you get a noisy holdout score and spend one unit of
your team's overfitting budget.

## Data

| file | rows | columns |
| --- | --- | --- |
| \`train.csv\` | ${TRAIN_HOUSEHOLDS} households × ${HOURS} hours | \`id\`, \`household\`, \`hour\`, \`kwh\` (the reading), \`spike\` (\`spike\` or \`none\`) |
| \`test.csv\` | ${DEMO_HOUSEHOLDS} households × ${HOURS} hours | \`id\`, \`household\`, \`hour\`, \`kwh\` |
| \`sample_submission.csv\` | one per test id | \`id\`, \`prediction\` |

Submit one prediction (\`spike\` or \`none\`) for every id in \`test.csv\`.`;

const RULES = `1. One account per person; teams of up to 4.
2. At most 5 submissions per team per UTC day.
3. No hand-labelling of the test rows.`;

/**
 * Whether `npm start` creates the demo: always with QUILTBOARD_DEMO=1, never with QUILTBOARD_DEMO=0,
 * and otherwise only for the one-command demo on the embedded database. With DATABASE_URL (an outside
 * PostgreSQL, docker-compose) or NODE_ENV=production no demo accounts are created.
 */
export function demoRequested(env: Record<string, string | undefined>): boolean {
  return parseEnvironment(env).QUILTBOARD_DEMO ?? (!env.DATABASE_URL?.trim() && env.NODE_ENV !== "production");
}

/** True when the database has no users yet (first start). */
export async function needsSeed(): Promise<boolean> {
  return (await db.user.count()) === 0;
}

/** Seeds the demo; its data come from `dataSeed` (random unless given). */
export async function seed(now = new Date(), dataSeed = randomBytes(16).toString("hex")): Promise<void> {
  const [admin, alice, bob] = await Promise.all(DEMO_ACCOUNTS.map((a) => createUser({ email: a.email, password: a.password, name: a.name }, a.role)));
  await db.user.updateMany({ where: { id: { in: [admin.id, alice.id, bob.id] } }, data: { emailVerifiedAt: now } }); // demo addresses count as verified
  const day = 24 * 60 * 60 * 1000;
  // Parsed as POST /api/v1/competitions parses its body: the service takes the schema's output (its defaults filled in).
  await createCompetition(
    admin,
    createCompetitionSchema.parse({
      slug: DEMO_SLUG,
      title: "Household Power Spikes",
      description: DESCRIPTION,
      rules: RULES,
      metric: { name: "accuracy" },
      startsAt: new Date(now.getTime() - day),
      endsAt: new Date(now.getTime() + 60 * day),
      dailySubmissionLimit: 5,
      maxTeamSize: 4,
    }),
  );
  const solution = demoSolutionCsv(dataSeed, DEMO_HOUSEHOLDS);
  await uploadSolution(admin, DEMO_SLUG, new Response(solution).body);
  for (const file of demoDataFiles(dataSeed, DEMO_HOUSEHOLDS))
    await addAttachment(admin, DEMO_SLUG, new Response(file.csv).body, async () => ({ name: file.name, contentType: "text/csv", description: null }));
  // The solution declares households and states, so the holdout is modelled as a Markov chain fitted
  // from them; the mechanism runs the recommended settings (docs/mechanism.md §2.6) with the demo's budget.
  await setMechanism(admin, DEMO_SLUG, { mode: "recommended", budget: DEMO_BUDGET });
  await publishCompetition(admin, DEMO_SLUG);

  // Two teams play through the real scoring service: Alice improves honestly, Bob tunes to the
  // public split, and the mechanism charges him for it.
  await createTeam(alice, DEMO_SLUG, { name: "Gradient Gliders", acceptRules: true });
  await createTeam(bob, DEMO_SLUG, { name: "Overfit Otters", acceptRules: true });
  const play = (who: typeof alice, csv: string) => submit(who, DEMO_SLUG, new Response(csv).body, { now });
  for (const [i, skill] of [0.62, 0.7, 0.74].entries()) await play(alice, demoPredictionsCsv({ skill, seed: `alice-${i}`, solution }));
  for (let i = 0; i < 4; i++) await play(bob, demoPredictionsCsv({ skill: 0, seed: `bob-${i}`, overfit: true, solution }));
}
