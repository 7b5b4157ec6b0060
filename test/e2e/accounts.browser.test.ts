import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { focused, look } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, publishedCompetition, signUpInBrowser, uniqueEmail } from "./helpers";
import { basic } from "@/scripts/support/rest-client";

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
    await look(page, "account-token");

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
    await look(page, "competitions-phone");
    await phone.close();
  });

  it("signs up from a competition and comes back to it; says the password's minimum first; a taken address takes the focus with its error", async () => {
    const { slug } = await publishedCompetition();
    const taken = await newApiUser("taken");
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.goto(`/competitions/${slug}/team`);
    await look(page, "team-signed-out");
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL((url) => url.pathname === "/signup" && url.searchParams.get("callbackUrl") === `/competitions/${slug}/team`);
    // The minimum is part of the password field's description before anything is typed.
    expect(await page.getByLabel("Password").getAttribute("aria-describedby")).toBe("password-hint");
    expect(await page.locator("#password-hint").textContent()).toBe("At least 10 characters.");
    await look(page, "signup");

    await page.getByLabel("Name").fill("Sam Second");
    await page.getByLabel("Email").fill(taken.email);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => focused(page)).toMatchObject({ tag: "input", name: "Email" });
    const email = page.getByLabel("Email");
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(`#${(await email.getAttribute("aria-describedby"))!}`).textContent()).toBe(`An account with the email ${taken.email} already exists.`);
    await look(page, "signup-taken");

    await email.fill(uniqueEmail("sam"));
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`**/competitions/${slug}/team`);
    await page.getByLabel("Team name").waitFor();
    await page.close();
  });

  it("offers a signed-in user the competitions and hosting, not an account", async () => {
    await browser.clearCookies();
    const page = await browser.newPage();
    await signUpInBrowser(page, "Hana Home");
    await page.goto("/");
    expect(await page.getByRole("link", { name: "Create an account" }).count()).toBe(0);
    expect(await page.getByRole("main").getByRole("link", { name: "Host a competition" }).getAttribute("href")).toBe("/competitions/new");
    await look(page, "home-signed-in");
    await page.close();
  });
});
