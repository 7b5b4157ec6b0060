import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastMailTo, linkIn } from "@/scripts/support/caught-mail";
import { look } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, newCompetitor, publishedCompetition, signInInBrowser, signUpInBrowser } from "./helpers";

// The mail is read from the real SMTP server the test run starts (MailDev), as a user would.
describe.skipIf(!CHROMIUM_PATH)("accounts and mail in a real browser", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("signs up, is refused by a competition for verified addresses, verifies from the mail, then joins", async () => {
    const { slug, organizer } = await publishedCompetition();
    expect((await api(`/api/v1/competitions/${slug}`, { method: "PATCH", headers: organizer, body: { access: { requireVerifiedEmail: true } } })).status).toBe(200);
    await browser.clearCookies();
    const page = await browser.newPage();
    const email = await signUpInBrowser(page, "Vera Verified");
    await expect.poll(() => page.getByTestId("email-status").textContent()).toBe("Not verified");

    await page.goto(`/competitions/${slug}/team`);
    await page.getByTestId("access-rules").filter({ hasText: "verified email addresses only" }).waitFor();
    await page.getByLabel("Team name").fill("Vera's Team");
    await page.getByLabel("I accept the rules of this competition").check();
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByRole("alert").filter({ hasText: "admits verified addresses only" }).waitFor();
    await look(page, "team-refused");

    const mail = await lastMailTo(email, /Verify your email/);
    expect(mail.html).toContain("Verify my address");
    const link = linkIn(mail, "/verify-email?token=");
    await page.goto(link.pathname + link.search); // opening the link verifies
    await page
      .getByRole("status")
      .filter({ hasText: `Your address ${email} is verified.` })
      .waitFor();
    await look(page, "verify-email");
    await page.goto("/account");
    await expect.poll(() => page.getByTestId("email-status").textContent()).toBe("Verified");
    // A second time the link is used up, but this address is verified: it says so, not an error.
    await page.goto(link.pathname + link.search);
    await page
      .getByRole("status")
      .filter({ hasText: `Your address ${email} is already verified.` })
      .waitFor();
    expect(await page.getByRole("alert").filter({ hasText: "not valid" }).count()).toBe(0);
    // Signed out, a used link is an error that says what to do.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    await page.goto(link.pathname + link.search);
    await page.getByRole("alert").filter({ hasText: "This link is not valid any more" }).waitFor();
    await look(page, "verify-email-used");
    await signInInBrowser(page, email, "browser password 1");

    await page.goto(`/competitions/${slug}/team`);
    await page.getByLabel("Team name").fill("Vera's Team");
    await page.getByLabel("I accept the rules of this competition").check();
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByTestId("team-panel").waitFor();
    await page.close();
  });

  it("admits by approval: the applicant asks, the organizer approves on the manage page, the applicant is told by mail and joins", async () => {
    const organizer = await newApiUser("approver");
    const { slug } = await publishedCompetition({ organizer: organizer.auth });
    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage#access`);
    await page.getByLabel("Organizers approve each participant").check();
    await page.getByRole("button", { name: "Save access rules" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await page.getByTestId("change-log").getByText("Who may take part anyone with an account → people the organizers approved").waitFor();

    const applicantContext = await launchBrowser();
    const applicant = await applicantContext.newPage();
    const email = await signUpInBrowser(applicant, "Abe Applicant");
    await applicant.goto(`/competitions/${slug}/team`);
    await applicant.getByRole("button", { name: "Ask to take part" }).click();
    await applicant.getByRole("status").filter({ hasText: "Your request was sent to the organizers" }).waitFor();

    await page.goto(`/competitions/${slug}/manage/operations#registrations`);
    await page.getByRole("button", { name: "Approve Abe Applicant" }).click();
    await page.getByTestId("registrations").getByText("approved").waitFor();
    await look(page, "manage-access");
    expect((await lastMailTo(email, /You may take part/)).text).toContain("approved your request");

    await applicant.reload();
    await applicant.getByLabel("Team name").fill("Abe's Team");
    await applicant.getByLabel("I accept the rules of this competition").check();
    await applicant.getByRole("button", { name: "Create team" }).click();
    await applicant.getByTestId("team-panel").waitFor();
    await applicantContext.close();
    await page.close();
  });

  it("invites a co-organizer, who accepts from the mail and can be removed again", async () => {
    const organizer = await newApiUser("host");
    const { slug } = await publishedCompetition({ organizer: organizer.auth });
    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage/operations#organizers`);
    const helperContext = await launchBrowser();
    const helper = await helperContext.newPage();
    const email = await signUpInBrowser(helper, "Hal Helper");
    await page.getByLabel("Invite a co-organizer by email").fill(email);
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Invitation sent to ${email}` })
      .waitFor();
    await page.getByTestId("organizers").getByText(email).waitFor(); // pending, not an organizer yet

    const link = linkIn(await lastMailTo(email, /invited to organize/), "/organizer-invitation?token=");
    await helper.goto(link.pathname + link.search);
    await helper.getByRole("button", { name: "Accept the invitation" }).click();
    await helper.waitForURL(`**/competitions/${slug}/manage`);
    await look(helper, "organizer-invitation-accepted");

    await page.reload();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Remove Hal Helper as organizer" }).click();
    await page.getByRole("status").filter({ hasText: "Hal Helper is no longer an organizer" }).waitFor();
    expect((await api(`/api/v1/competitions/${slug}/organizers`, { headers: organizer.auth }).then((r) => r.json())).organizers).toHaveLength(1);
    await helperContext.close();
    await page.close();
  });

  it("forgets the password, resets it from the mail, and every other session is signed out", async () => {
    await browser.clearCookies();
    const page = await browser.newPage();
    const email = await signUpInBrowser(page, "Rita Reset", "the old password");
    const other = await launchBrowser(); // another device, signed in before the reset
    const elsewhere = await other.newPage();
    await signInInBrowser(elsewhere, email, "the old password");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    await page.goto("/signin");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor(); // not the sign-in form's Email field
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByRole("status").filter({ hasText: "If an account has this address" }).waitFor();

    const link = linkIn(await lastMailTo(email, /Reset your Quiltboard password/), "/reset-password?token=");
    await page.goto(link.pathname + link.search);
    await page.getByLabel("New password").fill("the new password");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await page.getByRole("status").filter({ hasText: "Your password was changed" }).waitFor();
    await look(page, "reset-password");
    // The link works once.
    await page.goto(link.pathname + link.search);
    await page.getByLabel("New password").fill("yet another password");
    await page.getByRole("button", { name: "Set the new password" }).click();
    await page.getByRole("alert").filter({ hasText: "this link is not valid any more" }).waitFor();

    await signInInBrowser(page, email, "the new password");

    await elsewhere.goto("/account");
    await elsewhere.waitForURL((url) => url.pathname === "/signin");
    await other.close();
    await page.close();
  });
  it("the close's mail unsubscribes with one click (a mail client's POST to List-Unsubscribe) or from the page its last link opens", async () => {
    const { slug, organizer } = await publishedCompetition();
    const [one, two] = [await newCompetitor(slug), await newCompetitor(slug)];
    expect((await api(`/api/v1/competitions/${slug}/close`, { method: "POST", headers: organizer })).status).toBe(200);
    type Caught = { subject: string; to: { address: string }[]; headers: Record<string, string> };
    const headersOf = async (email: string) => {
      await lastMailTo(email, /Final standings of/);
      const mails = (await (await fetch(`${process.env.MAIL_UI_URL}/email`)).json()) as Caught[];
      return mails.find((m) => m.to.some((t) => t.address === email) && /Final standings of/.test(m.subject))!.headers;
    };

    // A mail client's one-click unsubscribe: a POST with RFC 8058's body, no cookie, no token.
    const headers = await headersOf(one.email);
    expect(headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const oneClick = new URL(headers["list-unsubscribe"].replace(/^<|>$/g, ""));
    const answer = await fetch(new URL(oneClick.pathname + oneClick.search, APP_URL), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ kind: "results", label: "final standings", unsubscribed: true });

    // A person follows the link at the end of the mail: a page asks first.
    const link = linkIn(await lastMailTo(two.email, /Final standings of/), "/unsubscribe?");
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.goto(link.pathname + link.search);
    await page.getByText("Stop mail about final standings?").waitFor();
    await look(page, "unsubscribe");
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByRole("status").filter({ hasText: "You will get no more mail about final standings." }).waitFor();
    // A link someone made up is refused.
    await page.goto(`/unsubscribe?user=${crypto.randomUUID()}&kind=results&sig=made-up`);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await page.getByRole("alert").filter({ hasText: "This unsubscribe link is not valid" }).waitFor();
    await page.close();
  });
});
