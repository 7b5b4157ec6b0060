// The demo data of `npm start`: an admin, two competitors and one draft competition.
// Runs once, on an empty database (scripts/start.ts).
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { hashPassword } from "@/lib/server/passwords";

export const DEMO_ACCOUNTS = [
  { email: "admin@quiltboard.test", name: "Ada Admin", password: "quiltboard-admin", role: "admin" as const },
  { email: "alice@quiltboard.test", name: "Alice Competitor", password: "quiltboard-alice", role: "user" as const },
  { email: "bob@quiltboard.test", name: "Bob Competitor", password: "quiltboard-bob", role: "user" as const },
];

const DESCRIPTION = `Predict whether a household's smart meter will report a **consumption spike** in the next hour.

Rows are hourly readings, several per household, so neighbouring rows are correlated: the holdout is
calibrated as a Markov chain over consumption states, fitted from the solution's \`state\` column.

Scores are released through Thresholdout: when your public score agrees with the holdout, you see the
public score and spend nothing; when it does not, you get a noisy holdout score and spend one unit of
your team's overfitting budget.`;

const RULES = `1. One account per person; teams of up to 4.
2. At most 5 submissions per team per UTC day.
3. No hand-labelling of the test rows.`;

/** True when the database has no users yet (first start). */
export async function needsSeed(db: PrismaClient): Promise<boolean> {
  return (await db.user.count()) === 0;
}

export async function seed(db: PrismaClient, now = new Date()): Promise<void> {
  const users = [];
  for (const account of DEMO_ACCOUNTS) {
    users.push(
      await db.user.create({
        data: { email: account.email, name: account.name, role: account.role, passwordHash: await hashPassword(account.password) },
      }),
    );
  }
  const day = 24 * 60 * 60 * 1000;
  await db.competition.create({
    data: {
      slug: "household-power-spikes",
      title: "Household Power Spikes",
      description: DESCRIPTION,
      rules: RULES,
      status: "draft",
      metric: "accuracy",
      startsAt: new Date(now.getTime() + day),
      endsAt: new Date(now.getTime() + 60 * day),
      dailySubmissionLimit: 5,
      maxTeamSize: 4,
      createdById: users[0].id,
    },
  });
}
