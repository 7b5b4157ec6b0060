import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { api, APP_URL, newApiUser, publishedCompetition, signInWithCookies, uniqueEmail } from "./helpers";
import { basic } from "@/scripts/support/rest-client";

const PASSWORD = "a long enough password";

describe("accounts API (docs/api.md)", () => {
  it("signs up, creates a token with Basic auth and uses it as a Bearer token", async () => {
    const email = uniqueEmail();
    const signUp = await api("/api/v1/users", { body: { email, password: PASSWORD, name: "Api User" } });
    expect(signUp.status).toBe(201);
    const user = await signUp.json();
    expect(user).toEqual({ id: expect.any(String), email, name: "Api User", role: "user" });
    expect(JSON.stringify(user)).not.toContain("password");

    const created = await api("/api/v1/tokens", { body: { name: "script" }, headers: basic(email, PASSWORD) });
    expect(created.status).toBe(201);
    const token = await created.json();
    expect(token).toEqual({ id: expect.any(String), name: "script", token: expect.stringMatching(/^qb_/) });

    const me = await api("/api/v1/me", { headers: { authorization: `Bearer ${token.token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ ...user, emailVerified: false });
  });

  it("answers wrong credentials with 401 in the one error format", async () => {
    const email = uniqueEmail();
    await api("/api/v1/users", { body: { email, password: PASSWORD, name: "Wrong" } });
    const wrong = await api("/api/v1/tokens", { body: { name: "x" }, headers: basic(email, "not the password") });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { code: "unauthorized", message: "wrong email or password" } });
    const none = await api("/api/v1/tokens", { body: { name: "x" } });
    expect(none.status).toBe(401);
    const bogus = await api("/api/v1/me", { headers: { authorization: "Bearer qb_not-a-token" } });
    expect(bogus.status).toBe(401);
    expect((await bogus.json()).error.code).toBe("unauthorized");
    expect((await api("/api/v1/me")).status).toBe(401);
  });

  it("names the bad fields with 422, a taken email with 409, malformed JSON with 400", async () => {
    const bad = await api("/api/v1/users", { body: { email: "nope", password: "short", name: "" } });
    expect(bad.status).toBe(422);
    const body = await bad.json();
    expect(body.error.code).toBe("unprocessable_entity");
    expect(body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["email", "name", "password"]);

    const email = uniqueEmail();
    expect((await api("/api/v1/users", { body: { email, password: PASSWORD, name: "Twice" } })).status).toBe(201);
    const again = await api("/api/v1/users", { body: { email, password: PASSWORD, name: "Twice" } });
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toBe(`an account with the email ${email} already exists`);

    const malformed = await fetch(`${process.env.APP_URL}/api/v1/users`, { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe("bad_request");
  });

  it("answers hostile input with the error it is, never a 500 (issue 24: each was one)", async () => {
    const longEmail = `${randomBytes(3000).toString("hex")}@example.com`;
    const basicLong = await api("/api/v1/tokens", { body: { name: "x" }, headers: basic(longEmail, "any password") });
    expect([basicLong.status, (await basicLong.json()).error.message]).toEqual([401, "wrong email or password"]);
    const { email, password } = await newApiUser("origin");
    const { cookie } = await signInWithCookies(email, password);
    for (const origin of ["http://[not-a-host", "null", "not a url"]) {
      const forged = await fetch(`${APP_URL}/api/v1/me/verification`, { method: "POST", headers: { cookie: cookie(), origin } });
      expect([origin, forged.status]).toEqual([origin, 403]);
    }
    const { slug } = await publishedCompetition();
    for (const query of ["page=1e300", "page=-1", "pageSize=abc"]) {
      const page = await api(`/api/v1/competitions/${slug}/leaderboard?${query}`);
      expect([query, page.status]).toEqual([query, 422]);
    }
  });

  it("creates and revokes a token with the web session, as the account page does: from this site only, never with another token, the caller's own only", async () => {
    const user = await newApiUser("session-tokens");
    const session = await signInWithCookies(user.email, user.password);
    const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      fetch(`${APP_URL}${path}`, { method, headers: { "content-type": "application/json", ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const here = { cookie: session.cookie(), origin: new URL(APP_URL).origin };

    const created = await send("POST", "/api/v1/tokens", here, { name: "laptop" });
    expect(created.status).toBe(201);
    const token = await created.json();
    expect(token).toEqual({ id: expect.any(String), name: "laptop", token: expect.stringMatching(/^qb_/) });
    const bearer = { authorization: `Bearer ${token.token}` };
    expect((await api("/api/v1/me", { headers: bearer })).status).toBe(200);

    // Another site's page cannot make one with the user's cookie; a token cannot make another.
    const forged = await send("POST", "/api/v1/tokens", { cookie: session.cookie(), origin: "https://elsewhere.example" }, { name: "stolen" });
    expect([forged.status, (await forged.json()).error.code]).toEqual([403, "forbidden"]);
    const byToken = await send("POST", "/api/v1/tokens", bearer, { name: "again" });
    expect([byToken.status, (await byToken.json()).error.message]).toEqual([401, "send HTTP Basic credentials (email:password)"]);
    const unnamed = await send("POST", "/api/v1/tokens", here, { name: "" });
    expect([unnamed.status, (await unnamed.json()).error.details[0].path]).toEqual([422, "name"]);

    // Someone else cannot revoke it (the same 404 as a token that does not exist); its owner can, once.
    const other = await newApiUser("other");
    expect((await api(`/api/v1/tokens/${token.id}`, { method: "DELETE", headers: other.auth })).status).toBe(404);
    expect((await api("/api/v1/me", { headers: bearer })).status).toBe(200);
    const revoked = await send("DELETE", `/api/v1/tokens/${token.id}`, here);
    expect([revoked.status, await revoked.json()]).toEqual([200, { deleted: true }]);
    expect((await api("/api/v1/me", { headers: bearer })).status).toBe(401);
    expect((await send("DELETE", `/api/v1/tokens/${token.id}`, here)).status).toBe(404);
    expect((await api("/api/v1/tokens/not-a-uuid", { method: "DELETE", headers: user.auth })).status).toBe(404);
  });

  it("a password change signs every other session out and keeps the one that made it; a reset also revokes the API tokens", async () => {
    const user = await newApiUser("sessions");
    const mine = await signInWithCookies(user.email, user.password);
    const other = await signInWithCookies(user.email, user.password);
    const me = (session: { cookie: () => string }) => fetch(`${APP_URL}/api/v1/me`, { headers: { cookie: session.cookie() } });
    expect([(await me(mine)).status, (await me(other)).status]).toEqual([200, 200]);
    const changed = await fetch(`${APP_URL}/api/v1/me/password`, {
      method: "PUT",
      headers: { cookie: mine.cookie(), origin: new URL(APP_URL).origin, "content-type": "application/json" },
      body: JSON.stringify({ currentPassword: user.password, newPassword: "the next long password" }),
    });
    expect(changed.status).toBe(200);
    mine.keep(changed); // the renewed session cookie
    expect([(await me(mine)).status, (await me(other)).status]).toEqual([200, 401]);
    expect((await api("/api/v1/me", { headers: user.auth })).status).toBe(200); // tokens stay; the account page revokes them
  });

  it("rejects an oversized body with 413 before reading it", async () => {
    const huge = await api("/api/v1/users", { body: { email: uniqueEmail(), password: PASSWORD, name: "x".repeat(1_100_000) } });
    expect(huge.status).toBe(413);
  });

  it("lists competitions and answers unknown endpoints with a JSON 404", async () => {
    const list = await api("/api/v1/competitions");
    expect(list.status).toBe(200);
    expect(Array.isArray((await list.json()).competitions)).toBe(true);
    const missing = await api("/api/v1/no-such-thing");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: "not_found", message: "no API endpoint GET /api/v1/no-such-thing" } });
  });
});
