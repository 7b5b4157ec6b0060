import { randomBytes } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { verifyPassword } from "@/lib/server/passwords";
import { DEMO_ACCOUNTS, needsSeed, seed } from "@/prisma/seed";
import { createDatabaseIfMissing, dropDatabase } from "@/scripts/db/admin";
import { migrate } from "@/scripts/db/migrate";

const name = `seed_${randomBytes(4).toString("hex")}`;
const admin = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: "/postgres" }).toString();
const url = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString();
let prisma: PrismaClient;

beforeAll(async () => {
  await createDatabaseIfMissing(admin, name);
  await migrate(url);
  prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
});
afterAll(async () => {
  await prisma.$disconnect();
  await dropDatabase(admin, name);
});

it("seeds the demo accounts with their printed passwords and a draft competition, once", async () => {
  expect(await needsSeed(prisma)).toBe(true);
  await seed(prisma);
  expect(await needsSeed(prisma)).toBe(false);
  const users = await prisma.user.findMany({ orderBy: { email: "asc" } });
  expect(users.map((u) => [u.email, u.role])).toEqual([
    ["admin@quiltboard.test", "admin"],
    ["alice@quiltboard.test", "user"],
    ["bob@quiltboard.test", "user"],
  ]);
  for (const account of DEMO_ACCOUNTS) {
    const user = users.find((u) => u.email === account.email)!;
    expect(await verifyPassword(account.password, user.passwordHash)).toBe(true);
  }
  const competitions = await prisma.competition.findMany();
  expect(competitions.map((c) => [c.slug, c.status])).toEqual([["household-power-spikes", "draft"]]);
});
