import { randomBytes } from "node:crypto";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastMailTo, linkIn } from "@/scripts/support/caught-mail";
import { basic } from "@/scripts/support/rest-client";
import { look } from "./a11y";
import { api, CHROMIUM_PATH, launchBrowser, newApiUser, publishedCompetition, signInInBrowser, signUpInBrowser, uniqueEmail } from "./helpers";

// Sign-in through a real OpenID Connect provider in Chromium: npm test starts one on 127.0.0.1
// (scripts/oidc.ts, the npm package oidc-provider) and configures the apps with it as "Lab SSO"
// (QUILTBOARD_OIDC_PROVIDERS). Its own login form takes any login: the login is the address it vouches for.
describe.skipIf(!CHROMIUM_PATH)("sign-in through an OpenID Connect provider in a real browser", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** From the app's sign-in page through the provider's login and consent, back to the app. */
  async function signInAtLab(page: import("playwright-core").Page, login: string) {
    await browser.clearCookies({ domain: "127.0.0.1" }); // the provider's session: it asks who signs in each time
    await page.goto("/signin?callbackUrl=%2Faccount");
    await look(page, "sign-in-providers");
    expect(await page.getByRole("button", { name: "Continue with GitHub" }).count()).toBe(0); // not configured, not shown
    await page.getByRole("button", { name: "Continue with Lab SSO" }).click();
    await atLab(page, login);
  }

  /** At the provider (after a button sent the browser there): its login as `login`, then its consent. */
  async function atLab(page: import("playwright-core").Page, login: string) {
    await page.waitForURL((url) => url.hostname === "127.0.0.1" && url.pathname.startsWith("/interaction/"));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click(); // the provider's consent
  }

  it("a first sign-in makes a verified account and signs in; an unverified address is sent back with the reason", async () => {
    await browser.clearCookies();
    const page = await browser.newPage();
    const email = uniqueEmail("lab");
    await signInAtLab(page, email);
    await page.waitForURL("**/account");
    await page.getByTestId("account-link").waitFor();
    await expect.poll(() => page.getByTestId("email-status").textContent()).toBe("Verified");
    await page.getByText(email).first().waitFor();
    // The account page lists the identity it was made through.
    const identities = page.getByTestId("identity-row");
    await identities.filter({ hasText: "Lab SSO" }).filter({ hasText: email }).waitFor();
    expect(await identities.count()).toBe(1);
    await look(page, "account-identities");

    // Signed out, an identity whose provider does not vouch for this (verified) address is refused, and the page says why.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    await signInAtLab(page, `unverified:${email}`);
    await page.waitForURL((url) => url.pathname === "/signin" && url.searchParams.get("error") === "no_verified_email");
    await page.getByRole("alert").filter({ hasText: "Your account with that provider has no verified email address." }).waitFor();
    await look(page, "sign-in-refused");
    expect(await page.getByTestId("account-link").count()).toBe(0);
    // The same address through the provider, verified: the account it made before.
    await signInAtLab(page, email);
    await page.waitForURL("**/account");
    await page.getByText(email).first().waitFor();
    await page.close();
  });

  it("a competition that asks for a Lab SSO sign-in refuses a competitor without one, offers the sign-in, and admits them after it", async () => {
    // The organizer picks the provider on the manage page, which offers the configured one only.
    const organizer = await newApiUser("sso-organizer");
    const { slug } = await publishedCompetition({ organizer: organizer.auth });
    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage#access`);
    const select = page.getByLabel("Participants must have signed in through");
    expect(await select.locator("option").allTextContents()).toEqual(["No provider needed", "Lab SSO"]);
    await select.selectOption("lab");
    await page.getByLabel("With an address that provider verified at").fill("example.com");
    await page.getByRole("button", { name: "Save access rules" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await look(page, "manage-identity-rule");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();

    // A competitor with a password account, its address verified from the mail, and no Lab SSO identity.
    const email = await signUpInBrowser(page, "Ida Identity");
    const link = linkIn(await lastMailTo(email, /Verify your email/), "/verify-email?token=");
    await page.goto(link.pathname + link.search);
    await page
      .getByRole("status")
      .filter({ hasText: `Your address ${email} is verified.` })
      .waitFor();
    await page.goto(`/competitions/${slug}/team`);
    await page.getByTestId("access-rules").filter({ hasText: "people signed in through Lab SSO with an address at example.com" }).waitFor();
    const notice = page.getByTestId("identity-required");
    await notice
      .filter({ hasText: "This competition admits people signed in through Lab SSO with an address at example.com, and your account has no Lab SSO identity." })
      .waitFor();
    await page.getByLabel("Team name").fill("Ida's Team");
    await page.getByLabel("I accept the rules of this competition").check();
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByRole("alert").filter({ hasText: "your account has no Lab SSO identity" }).waitFor();
    await look(page, "identity-required");

    // Through the provider with the account's own address: linked, back on the Team tab, and admitted.
    await browser.clearCookies({ domain: "127.0.0.1" });
    await notice.getByRole("button", { name: "Sign in with Lab SSO" }).click();
    await atLab(page, email);
    await page.waitForURL((url) => url.pathname === `/competitions/${slug}/team`);
    await page.getByLabel("Team name").waitFor();
    expect(await page.getByTestId("identity-required").count()).toBe(0);
    await page.getByLabel("Team name").fill("Ida's Team");
    await page.getByLabel("I accept the rules of this competition").check();
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByTestId("team-panel").waitFor();
    await page.goto("/account");
    await page.getByTestId("identity-row").filter({ hasText: "Lab SSO" }).filter({ hasText: email }).waitFor();
    await page.close();

    // On a phone the refusal and its button fit the screen and pass axe.
    const phone = await launchBrowser({ width: 390, height: 844 });
    try {
      const small = await phone.newPage();
      await signUpInBrowser(small, "Pia Phone");
      await small.goto(`/competitions/${slug}/team`);
      await small.getByTestId("identity-required").getByRole("button", { name: "Sign in with Lab SSO" }).waitFor();
      await look(small, "identity-required-phone");
    } finally {
      await phone.close();
    }
  });

  it("the manage page names the accounts of different teams whose addresses follow one pattern, with their handles", async () => {
    const organizer = await newApiUser("pattern-organizer");
    const { slug } = await publishedCompetition({ organizer: organizer.auth });
    // A base of letters only, its own in this run: base@…, base7@… and base.8+alt@… in three teams.
    const base = `pat${[...randomBytes(5)].map((b) => String.fromCharCode(97 + (b % 26))).join("")}`;
    const emails = [`${base}@example.com`, `${base}7@example.com`, `${base}.8+alt@example.com`];
    for (const [i, email] of emails.entries()) {
      const password = "a long enough password";
      expect((await api("/api/v1/users", { method: "POST", body: { email, password, name: `Pattern ${i}` } })).status).toBe(201);
      const { token } = (await (await api("/api/v1/tokens", { method: "POST", headers: basic(email, password), body: { name: "e2e" } })).json()) as { token: string };
      const team = await api(`/api/v1/competitions/${slug}/teams`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: { name: `Pattern team ${i}`, acceptRules: true },
      });
      expect(team.status).toBe(201);
    }
    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage/operations#signals`);
    const signal = page.getByTestId("pattern-signal");
    await signal.waitFor();
    expect(await signal.textContent()).toBe(
      `3 email addresses named like “${base}”, in 3 teams: ${emails[2]} (Pattern 2, team Pattern team 2); ${emails[1]} (Pattern 1, team Pattern team 1); ${emails[0]} (Pattern 0, team Pattern team 0).`,
    );
    await look(page, "manage-pattern-signals");
    await page.close();
  });

  it("a made-up error in the address shows a fixed sentence, never the query's text", async () => {
    const page = await browser.newPage();
    await page.goto(`/signin?error=${encodeURIComponent("Call +1 555 0100 to unlock your account")}`);
    await page.getByRole("alert").filter({ hasText: "That sign-in did not work. Try again." }).waitFor();
    expect(await page.getByText("555 0100").count()).toBe(0);
    await page.close();
  });
});
