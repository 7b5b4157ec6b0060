import http from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { lastMailTo, mailCount } from "@/scripts/support/caught-mail";
import { focused, look, tabTo } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, newCompetitor, publishedCompetition, signInInBrowser } from "./helpers";

// Reaching participants (issue 37): announcements, notification preferences and webhooks, through the
// real server, the browser and the test run's SMTP server (MailDev).
describe.skipIf(!CHROMIUM_PATH)("reaching participants", () => {
  let browser: BrowserContext;
  let phone: BrowserContext;
  beforeAll(async () => {
    [browser, phone] = await Promise.all([launchBrowser(), launchBrowser({ width: 390, height: 844 })]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), phone?.close()]);
  });

  it("an organizer posts an announcement with the keyboard; the Overview shows it with its date, each participant gets it once by mail", async () => {
    const organizer = await newApiUser("announcer");
    const { slug } = await publishedCompetition({ organizer: organizer.auth });
    const competitor = await newCompetitor(slug);
    const path = `/api/v1/competitions/${slug}/announcements`;
    // Over the API: competitors may not post, a bad body names its field, anyone reads the list.
    expect((await api(path, { method: "POST", headers: competitor.auth, body: { title: "Mine", body: "x" } })).status).toBe(403);
    const bad = await api(path, { method: "POST", headers: organizer.auth, body: { title: "No", body: "" } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).error.message).toMatch(/^title: use at least 3 characters/);
    expect(await (await api(path)).json()).toEqual({ announcements: [] });

    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage/operations#announcements`);
    await page.getByLabel("Subject", { exact: true }).focus();
    await page.keyboard.type("Data files replaced");
    await page.keyboard.press("Tab");
    expect(await focused(page)).toMatchObject({ tag: "textarea", name: "Announcement (Markdown)", visible: true });
    await page.keyboard.type("The **training file** had a duplicated row.\n\n<img src=x onerror=alert(1)>");
    await tabTo(page, (f) => f.name === "Post and mail");
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Posted and mailed to the participants." }).waitFor();
    await page.getByTestId("announcements").getByText("Data files replaced").waitFor();
    await look(page, "manage-announcements");

    const { announcements } = await (await api(path)).json();
    expect(announcements).toEqual([
      {
        id: expect.any(String),
        kind: "post",
        title: "Data files replaced",
        body: "The **training file** had a duplicated row.\n\n<img src=x onerror=alert(1)>",
        by: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);

    for (const context of [browser, phone]) {
      const overview = await context.newPage();
      await overview.goto(`/competitions/${slug}`);
      const shown = overview.locator("#announcements");
      await shown.getByRole("heading", { name: "Data files replaced" }).waitFor();
      expect(await shown.locator("strong").textContent()).toBe("training file"); // Markdown, rendered
      expect(await shown.locator("img").count()).toBe(0); // raw HTML is not
      expect(await shown.locator("time").getAttribute("datetime")).toBe(announcements[0].createdAt);
      await look(overview, `overview-announcements-${context === phone ? 390 : 1280}`);
      await overview.close();
    }

    const mail = await lastMailTo(competitor.email, /: Data files replaced$/);
    expect(mail.text).toContain("The **training file** had a duplicated row.");
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailCount(competitor.email, 0, /: Data files replaced$/)).toBe(1);
    expect(await mailCount(organizer.email, 0, /: Data files replaced$/)).toBe(0); // organizers do not take part
    await page.close();
  });

  it("a participant switches a kind of mail off on the account page with the keyboard, and one click in a mail switches another off", async () => {
    const organizer = await newApiUser("announcer");
    const { slug } = await publishedCompetition({ organizer: organizer.auth });
    const competitor = await newCompetitor(slug);
    const all = { announcements: true, merge_requests: true, approvals: true, reminders: true, results: true };
    expect(await (await api("/api/v1/me/notifications", { headers: competitor.auth })).json()).toEqual(all);
    expect((await api("/api/v1/me/notifications")).status).toBe(401);
    const bad = await api("/api/v1/me/notifications", { method: "PUT", headers: competitor.auth, body: { reminders: "no" } });
    expect(bad.status).toBe(422);

    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, competitor.email, competitor.password);
    await page.goto("/account");
    await page.getByLabel("Merge requests").focus();
    await tabTo(page, (f) => f.name === "Deadline reminders");
    await page.keyboard.press("Space");
    await tabTo(page, (f) => f.name === "Save notifications");
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await look(page, "account-notifications");
    expect(await (await api("/api/v1/me/notifications", { headers: competitor.auth })).json()).toEqual({ ...all, reminders: false });

    // An announcement's mail carries RFC 8058's one-click unsubscribe: the mail client POSTs to its link, no sign-in.
    expect((await api(`/api/v1/competitions/${slug}/announcements`, { method: "POST", headers: organizer.auth, body: { title: "Mind the gap", body: "Hello." } })).status).toBe(
      201,
    );
    await lastMailTo(competitor.email, /: Mind the gap$/);
    const caught = (await (await fetch(`${process.env.MAIL_UI_URL}/email`)).json()) as { to: { address: string }[]; subject: string; headers: Record<string, string> }[];
    const mail = caught.find((m) => m.to.some((t) => t.address === competitor.email) && m.subject.endsWith(": Mind the gap"))!;
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const link = new URL(mail.headers["list-unsubscribe"].replace(/^<|>$/g, ""));
    const oneClick = await fetch(new URL(link.pathname + link.search, APP_URL), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect([oneClick.status, await oneClick.json()]).toEqual([200, { kind: "announcements", label: "announcements and changed settings", unsubscribed: true }]);

    await phone.clearCookies();
    const small = await phone.newPage();
    await signInInBrowser(small, competitor.email, competitor.password);
    await small.goto("/account#notifications");
    expect(await small.getByLabel("Announcements and changed settings").isChecked()).toBe(false);
    expect(await small.getByLabel("Deadline reminders").isChecked()).toBe(false);
    expect(await small.getByLabel("Final standings").isChecked()).toBe(true);
    await look(small, "account-notifications-390");
    await Promise.all([page.close(), small.close()]);
  });

  it("an organizer adds a webhook on the manage page, sees its secret once, sends a test event; the receiver verifies every signature and sees a submission without a score", async () => {
    const received: { type: string; data: Record<string, unknown>; verified: boolean }[] = [];
    let secret = "";
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let verified = true;
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>);
        } catch {
          verified = false;
        }
        const { type, data } = JSON.parse(body) as { type: string; data: Record<string, unknown> };
        received.push({ type, data, verified });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/quiltboard`;
    try {
      const organizer = await newApiUser("hooker");
      const { slug } = await publishedCompetition({ organizer: organizer.auth });
      const competitor = await newCompetitor(slug);
      const path = `/api/v1/competitions/${slug}/webhooks`;
      expect((await api(path, { method: "POST", headers: competitor.auth, body: { url } })).status).toBe(403);
      expect((await api(path, { headers: competitor.auth })).status).toBe(403);
      const bad = await api(path, { method: "POST", headers: organizer.auth, body: { url, events: ["team.renamed"] } });
      expect(bad.status).toBe(422);

      await browser.clearCookies();
      const page = await browser.newPage();
      await signInInBrowser(page, organizer.email, organizer.password);
      await page.goto(`/competitions/${slug}/manage/operations#webhooks`);
      await page.getByLabel("Receiver URL").focus();
      await page.keyboard.type(url);
      await tabTo(page, (f) => f.name === "Add webhook");
      await page.keyboard.press("Enter");
      const shown = page.getByTestId("webhook-secret");
      await shown.waitFor();
      secret = (await shown.locator(".font-mono").textContent())!;
      expect(secret).toMatch(/^whsec_/);
      await page.getByTestId("webhook").filter({ hasText: url }).waitFor();
      await look(page, "manage-webhooks");

      await tabTo(page, (f) => f.name === `Send test event to ${url}`);
      await page.keyboard.press("Enter");
      await page.getByRole("status").filter({ hasText: "Test event sent." }).waitFor();
      await expect.poll(() => received.map((r) => r.type), { timeout: 15_000 }).toContain("webhook.test");

      // The secret is shown that once: neither the list nor the page holds it afterwards.
      const listed = await (await api(path, { headers: organizer.auth })).text();
      expect(listed).not.toContain(secret.slice(6));
      // Added with the form's default, all events: kept as such, so events added later reach it too.
      expect((JSON.parse(listed) as { webhooks: { events: unknown }[] }).webhooks.map((w) => w.events)).toEqual(["all"]);
      await page.reload();
      await page.getByTestId("webhook").filter({ hasText: url }).waitFor();
      expect(await page.content()).not.toContain(secret.slice(6));

      const answer = await competitor.call(`/api/v1/competitions/${slug}/submissions`, { csv: demoPredictionsCsv({ skill: 0.7, seed: "webhook-e2e" }) });
      await expect.poll(() => received.map((r) => r.type), { timeout: 15_000 }).toContain("submission.scored");
      const scored = received.find((r) => r.type === "submission.scored")!;
      expect(scored.data).toEqual({
        competition: slug,
        submission: { id: answer.id, createdAt: answer.createdAt, late: false },
        team: { id: competitor.team.id },
        budget: answer.budget,
      });
      expect(received.every((r) => r.verified)).toBe(true);

      const small = await phone.newPage();
      await phone.clearCookies();
      await signInInBrowser(small, organizer.email, organizer.password);
      await small.goto(`/competitions/${slug}/manage/operations#webhooks`);
      await small.getByTestId("webhook").getByText("submission.scored").first().waitFor();
      await look(small, "manage-webhooks-390");
      await Promise.all([page.close(), small.close()]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
