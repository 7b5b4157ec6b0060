import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/server/platform/errors";
import { consumeRateLimit, limitOf } from "@/lib/server/platform/rate-limit";
import { authenticate, changePassword, createUser, getSessionAccount } from "@/lib/server/accounts/users";
import { db } from "@/lib/server/platform/db";

describe("rate limits in PostgreSQL", () => {
  it("count concurrent attempts exactly and refuse the one past the limit with 429", async () => {
    const subject = `subject-${randomBytes(4).toString("hex")}`;
    const { limit } = limitOf("tokens");
    const results = await Promise.allSettled(Array.from({ length: limit + 5 }, () => consumeRateLimit("tokens", subject)));
    const refused = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(refused).toHaveLength(5);
    expect(refused[0].reason).toBeInstanceOf(AppError);
    expect((refused[0].reason as AppError).status).toBe(429);
    expect((refused[0].reason as AppError).message).toMatch(/^too many new API tokens: at most 20 per 60 minutes; try again in \d+ s$/);
  });

  it("stop password guessing on an account", async () => {
    const email = `guess-${randomBytes(4).toString("hex")}@example.com`;
    await createUser({ email, password: "the real password", name: "Target" });
    for (let i = 0; i < limitOf("signIn").limit; i++) expect(await authenticate(email, `guess ${i}`, "test-client")).toBeNull();
    await expect(authenticate(email, "the real password", "test-client")).rejects.toThrow(/too many wrong passwords for this account from your address/);
  });

  it("count wrong passwords per account and address: a stranger's guesses do not lock the owner out, and signing in is never limited by its own successes", async () => {
    const email = `owner-${randomBytes(4).toString("hex")}@example.com`;
    const owner = await createUser({ email, password: "the real password", name: "Owner" });
    for (let i = 0; i < limitOf("signIn").limit; i++) expect(await authenticate(email, `guess ${i}`, "attacker-address")).toBeNull();
    await expect(authenticate(email, "the real password", "attacker-address")).rejects.toThrow(/too many wrong passwords for this account from your address/);
    for (let i = 0; i < limitOf("signIn").limit + 2; i++) expect(await authenticate(email, "the real password", "owner-address")).toEqual({ user: owner, sessionVersion: 0 });
  });

  it("accept a 6 KB address as a wrong one (401), not a 500", async () => {
    expect(await authenticate(`${randomBytes(3000).toString("hex")}@example.com`, "any password", "test-client")).toBeNull();
  });
});

describe("sessions", () => {
  it("a password change signs out every session from before it", async () => {
    const email = `change-${randomBytes(4).toString("hex")}@example.com`;
    const user = await createUser({ email, password: "the real password", name: "Changer" });
    const { sessionVersion } = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { sessionVersion: true } });
    expect(await getSessionAccount(user.id, sessionVersion)).toEqual(user);
    await changePassword(user, { currentPassword: "the real password", newPassword: "the next password" }, "test-client");
    expect(await getSessionAccount(user.id, sessionVersion)).toBeNull();
  });
});
