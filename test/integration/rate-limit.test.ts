import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/server/platform/errors";
import { consumeRateLimit, LIMITS } from "@/lib/server/platform/rate-limit";
import { authenticate, createUser } from "@/lib/server/accounts/users";

describe("rate limits in PostgreSQL", () => {
  it("count concurrent attempts exactly and refuse the one past the limit with 429", async () => {
    const subject = `subject-${randomBytes(4).toString("hex")}`;
    const { limit } = LIMITS.tokens;
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
    for (let i = 0; i < LIMITS.signIn.limit; i++) expect(await authenticate(email, `guess ${i}`, "test-client")).toBeNull();
    await expect(authenticate(email, "the real password", "test-client")).rejects.toThrow(/too many sign-in attempts/);
  });
});
