import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, SCREENSHOTS, signUpInBrowser } from "./helpers";
import { basic } from "@/test/support/api";

const PASSWORD = "browser password 1";

describe.skipIf(!CHROMIUM_PATH)("accounts in a real browser", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("signs up, out and in; creates, uses and revokes an API token", async () => {
    const page = await browser.newPage();
    const email = await signUpInBrowser(page, "Browser User", PASSWORD);
    await expect.poll(() => page.getByTestId("account-link").textContent()).toBe("Browser User");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();

    await page.goto("/signin");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not my password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "Wrong email or password." }).waitFor();

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("account-link").waitFor();
    await page.goto("/account");

    await page.getByLabel("Token name").fill("laptop");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("new-token").textContent())!.trim();
    expect(token).toMatch(/^qb_/);
    await page.screenshot({ path: path.join(SCREENSHOTS, "account-token.png"), fullPage: true });

    // The same account through the API: Basic for a new token, Bearer for an authenticated call.
    expect((await api("/api/v1/tokens", { body: { name: "curl" }, headers: basic(email, PASSWORD) })).status).toBe(201);
    expect((await api("/api/v1/tokens", { body: { name: "curl" }, headers: basic(email, "wrong") })).status).toBe(401);
    const me = await api("/api/v1/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe(email);

    await page.getByRole("button", { name: "Revoke token laptop" }).click();
    await page.getByText("Revoked").waitFor();
    expect((await api("/api/v1/me", { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await page.close();
  });

  it("changes the password on the account page, and after sign-in never leaves the site", async () => {
    const page = await browser.newPage();
    await browser.clearCookies();
    const email = await signUpInBrowser(page, "Password Changer", PASSWORD);
    await page.goto("/account");
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel("New password").fill("a brand new password");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").filter({ hasText: "the current password is not right; nothing was changed" }).waitFor();
    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("use at least 10 characters").waitFor();
    await page.getByLabel("New password").fill("a brand new password");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("status").filter({ hasText: "Your password was changed." }).waitFor();
    expect((await api("/api/v1/tokens", { body: { name: "old" }, headers: basic(email, PASSWORD) })).status).toBe(401);
    expect((await api("/api/v1/tokens", { body: { name: "new" }, headers: basic(email, "a brand new password") })).status).toBe(201);

    // A sign-in link that names another site as the place to go afterwards lands on this one.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    for (const hostile of ["https://evil.example/", "//evil.example/", "/\\evil.example/", "/.//evil.example/phish"]) {
      await page.goto(`/signin?callbackUrl=${encodeURIComponent(hostile)}`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("a brand new password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/competitions");
      expect(new URL(page.url()).host).toBe(new URL(APP_URL).host);
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("link", { name: "Sign in" }).waitFor();
    }
    await page.close();
  });

  it("sends a signed-out visitor from the account page to sign in", async () => {
    const page = await browser.newPage();
    await browser.clearCookies();
    await page.goto("/account");
    await page.waitForURL((url) => url.pathname === "/signin" && url.searchParams.get("callbackUrl") === "/account");
    await page.close();
  });

  it("lists competitions on a phone-sized screen", async () => {
    const phone = await launchBrowser({ width: 390, height: 844 });
    const page = await phone.newPage();
    const response = await page.goto("/competitions");
    expect(response?.status()).toBe(200);
    await page.getByRole("heading", { name: "Competitions", level: 1 }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390); // no horizontal scrolling
    await page.screenshot({ path: path.join(SCREENSHOTS, "competitions-phone.png"), fullPage: true });
    await phone.close();
  });
});
