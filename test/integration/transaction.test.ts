import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db, transaction } from "@/lib/server/platform/db";
import { Prisma } from "@/lib/generated/prisma/client";

// db.ts `transaction` pipelines: BEGIN goes out with the first statements and the writes with the
// COMMIT, so a failure surfaces only when the whole transaction is awaited. These pin down that
// nothing of a failed transaction is kept.
const key = () => `transaction-test:${randomBytes(6).toString("hex")}`;
const insert = (k: string) => Prisma.sql`INSERT INTO rate_limits (key, window_start, count) VALUES (${k}, now(), 1)`;
const stored = (...keys: string[]) => db.rateLimit.count({ where: { key: { in: keys } } });

describe("db.ts transaction, pipelined", () => {
  it("commits its reads and writes, each statement seeing the ones before it", async () => {
    const [a, b] = [key(), key()];
    const seen = await transaction(async (tx) => {
      tx.write(insert(a));
      const [row] = await tx.read<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM rate_limits WHERE key = ${a}`);
      tx.write(insert(b));
      return row.n;
    });
    expect(seen).toBe(1);
    expect(await stored(a, b)).toBe(2);
  });

  it("keeps nothing when a write sent with the COMMIT fails, and reports that write's error", async () => {
    const [a, b] = [key(), key()];
    const outcome = transaction(async (tx) => {
      tx.write(insert(a));
      tx.write(insert(b));
      tx.write(insert(a)); // the same key again: a unique violation
    });
    await expect(outcome).rejects.toThrow(/duplicate key value violates unique constraint/);
    expect(await stored(a, b)).toBe(0);
  });

  it("keeps nothing when the work throws after writing", async () => {
    const a = key();
    const outcome = transaction(async (tx) => {
      tx.write(insert(a));
      await tx.read(Prisma.sql`SELECT 1`);
      throw new Error("changed my mind");
    });
    await expect(outcome).rejects.toThrow("changed my mind");
    expect(await stored(a)).toBe(0);
  });
});
