import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv, demoSolutionCsv } from "@/prisma/demo-solution";
import { CLI_BIN } from "@/scripts/cli-package";
import { lastMailTo } from "@/scripts/support/caught-mail";
import { publishOverApi } from "@/scripts/support/rest-client";
import { focused, look, tabTo } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, newCompetitor, postCsv, publishedCompetition, signInInBrowser, signUpInBrowser, uniqueEmail } from "./helpers";

// A newcomer's first steps (issue 40): finding a competition, the mail that verifies the address,
// the rules beside "I accept", what to do with a token, what is used up before choosing a file,
// and times in the viewer's own time zone.

describe.skipIf(!CHROMIUM_PATH)("first steps in a real browser", () => {
  let browser: BrowserContext;
  let phone: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    phone = await launchBrowser({ width: 390, height: 844 });
  });
  afterAll(async () => {
    await browser?.close();
    await phone?.close();
  });

  it("searches and filters the competitions on the server, with the filters in a link to share", async () => {
    // A word no other test's title holds, so the search sees only these.
    const word = `zq${randomBytes(4).toString("hex")}`;
    const solution = demoSolutionCsv();
    const open = await publishOverApi(APP_URL, { settings: { title: `${word} Power Spikes` }, solution });
    const later = await publishOverApi(APP_URL, { settings: { title: `${word} Solar Outlook`, startsAt: new Date(Date.now() + 3 * 86_400_000).toISOString() }, solution });

    // The API answers the same filters.
    const found = await (await api(`/api/v1/competitions?q=${word}+pow&status=open`)).json();
    expect(found).toMatchObject({
      total: 1,
      page: 1,
      pageSize: 500,
      competitions: [{ slug: open.slug, title: `${word} Power Spikes`, status: "published", startsAt: null, teams: 0 }],
    });
    expect((await (await api(`/api/v1/competitions?q=${word}&status=upcoming`)).json()).competitions.map((c: { slug: string }) => c.slug)).toEqual([later.slug]);
    const refused = await api("/api/v1/competitions?status=live");
    expect([refused.status, (await refused.json()).error.details]).toEqual([422, [{ path: "status", message: "status must be open, upcoming or closed" }]]);

    // The page, by keyboard: the title's words, a status, Search.
    const page = await browser.newPage();
    await page.goto("/competitions");
    await tabTo(page, (f) => f.name === "Title");
    await page.keyboard.type(word);
    await tabTo(page, (f) => f.tag === "select");
    await page.keyboard.type("Upcoming");
    await tabTo(page, (f) => f.name === "Search");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("q") === word && url.searchParams.get("status") === "upcoming");
    await expect.poll(() => page.getByTestId("competition-card").allTextContents()).toEqual([expect.stringContaining(`${word} Solar Outlook`)]);
    expect(await page.getByTestId("competition-card").getByText("Upcoming", { exact: true }).count()).toBe(1);
    expect(await page.getByTestId("competition-count").textContent()).toBe("1 competition matches.");
    await look(page, "competitions-search");

    // The link alone gives the same list, on a phone too; a filter that matches nothing says so.
    const small = await phone.newPage();
    await small.goto(`/competitions?q=${word}`);
    expect(await small.getByTestId("competition-card").count()).toBe(2);
    expect(await small.getByLabel("Title").inputValue()).toBe(word);
    await look(small, "competitions-search-phone");
    await small.goto(`/competitions?q=${word}+nothing`);
    expect(await small.getByTestId("no-competitions").textContent()).toBe("No competition matches these filters.");
    await small.goto("/competitions?status=live");
    await small.getByRole("alert").filter({ hasText: "Status must be open, upcoming or closed." }).waitFor();
    await small.close();
    await page.close();
  });

  it("says after sign-up that a verification link was mailed, and sends another on request", async () => {
    const { slug } = await publishedCompetition();
    await browser.clearCookies();
    const page = await browser.newPage();
    const email = await signUpInBrowser(page, "Vera Verify");
    // On the account page, whose own form sends the link again.
    const notice = page.getByTestId("welcome-notice");
    expect(await notice.textContent()).toContain(`We sent a link to ${email} to verify your address`);
    expect(await notice.getByRole("button").count()).toBe(0);
    await lastMailTo(email, /Verify your email/);

    // From a competition: back to it, with the notice and its button.
    await browser.clearCookies();
    const second = uniqueEmail("vic");
    await page.goto(`/signup?callbackUrl=${encodeURIComponent(`/competitions/${slug}/team`)}`);
    await page.getByLabel("Name").fill("Vic Verify");
    await page.getByLabel("Email").fill(second);
    await page.getByLabel("Password").fill("browser password 1");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`**/competitions/${slug}/team`);
    await notice.filter({ hasText: `We sent a link to ${second}` }).waitFor();
    await look(page, "welcome-notice");
    const first = await lastMailTo(second, /Verify your email/);
    await tabTo(page, (f) => f.name === "Send the link again");
    await page.keyboard.press("Enter");
    await page.getByTestId("welcome-resent").filter({ hasText: "Sent again: check your mail." }).waitFor();
    await expect.poll(async () => (await lastMailTo(second, /Verify your email/)).text !== first.text).toBe(true);
    // Gone once the viewer moves on.
    await page.getByRole("link", { name: "Rules" }).click();
    await page.waitForURL(`**/competitions/${slug}/rules`);
    expect(await notice.count()).toBe(0);
    await page.close();
  });

  it("shows the rules beside “I accept”, in a frame that scrolls and can be reached by keyboard", async () => {
    const rules = [
      "## Data",
      "Use only the data provided here.",
      "## Sharing",
      ...Array.from({ length: 30 }, (_, i) => `${i + 1}. Rule number ${i + 1}: no private sharing of code or data between teams.`),
      "## Final words",
      "The last rule: be kind.",
    ].join("\n\n");
    const { slug } = await publishOverApi(APP_URL, { settings: { title: "Rules beside the box", rules }, solution: demoSolutionCsv() });
    const user = await newApiUser("reader");
    for (const [context, name] of [
      [browser, "rules-to-accept"],
      [phone, "rules-to-accept-phone"],
    ] as const) {
      await context.clearCookies();
      const page = await context.newPage();
      await signInInBrowser(page, user.email, user.password);
      await page.goto(`/competitions/${slug}/team`);
      const frame = page.getByRole("region", { name: "The rules you accept" });
      await frame.getByText("The last rule: be kind.").waitFor({ state: "attached" });
      expect(await frame.getByRole("heading", { name: "Sharing" }).count()).toBe(1);
      expect(
        await page
          .getByTestId("rules-to-accept")
          .getByText(/^At most \d+ submissions per team per UTC day\.$/)
          .count(),
      ).toBe(1);
      // Tab reaches the frame (its focus shows), the arrow keys scroll it, and the next Tab stops at the box.
      await tabTo(page, (f) => f.name === "The rules you accept");
      expect((await focused(page)).visible).toBe(true);
      await page.keyboard.press("PageDown");
      await expect.poll(() => frame.evaluate((e) => e.scrollTop)).toBeGreaterThan(0);
      await look(page, name);
      await tabTo(page, (f) => f.name === "Team name");
      await tabTo(page, (f) => f.name === "I accept the rules of this competition");
      await page.close();
    }
  });

  it("says what to do with a new token: the command's credentials file, the Python client, curl", async () => {
    await browser.clearCookies();
    const page = await browser.newPage();
    await signUpInBrowser(page, "Tom Token");
    await page.getByLabel("Token name").fill("laptop");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("new-token").textContent())!.trim();
    const cli = (await page.getByTestId("token-cli").textContent())!.split("\n");
    expect(cli).toEqual([expect.stringMatching(/^quiltboard config set -n url -v http:\/\/\S+$/), `quiltboard config set -n token -v ${token}`]);
    expect(await page.getByTestId("token-python").textContent()).toContain(`/competitions/SLUG", token="${token}")`);
    expect(await page.getByTestId("token-curl").textContent()).toMatch(new RegExp(`^curl -H "Authorization: Bearer ${token}" http://\\S+/api/v1/me$`));
    await look(page, "token-how-to");

    // The lines, run as shown, write the credentials file the command reads; its token works.
    const home = mkdtempSync(path.join(tmpdir(), "quiltboard-config-"));
    for (const line of cli) {
      const run = spawnSync(process.execPath, [CLI_BIN, ...line.split(" ").slice(1)], {
        encoding: "utf8",
        env: { ...process.env, QUILTBOARD_URL: "", QUILTBOARD_TOKEN: "", QUILTBOARD_CONFIG_DIR: home },
      });
      expect(run.status, run.stderr).toBe(0);
    }
    const stored = JSON.parse(readFileSync(path.join(home, "quiltboard.json"), "utf8"));
    expect(stored).toEqual({ url: cli[0].split(" ").at(-1), token });
    expect((await api("/api/v1/me", { headers: { authorization: `Bearer ${stored.token}` } })).status).toBe(200);
    await page.close();
  });

  it("says before a file is chosen that the team's holdout checks are used up", async () => {
    // A tiny threshold: the first submission is checked on the holdout, which spends the one unit.
    const { slug } = await publishedCompetition({ budget: 1, sigma: 0.001, threshold: 0.001 });
    const player = await newCompetitor(slug);
    const answer = await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0, seed: "spend", overfit: true }), player.auth);
    expect((await answer.json()).budget).toEqual({ remaining: 0, initial: 1 });
    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, player.email, player.password);
    await page.goto(`/competitions/${slug}/submissions`);
    expect(await page.getByTestId("checks-used-up").textContent()).toBe(
      "Your team's holdout checks are used up: a submission now shows its public score, not checked, and stays off the leaderboard.",
    );
    expect(await page.locator('input[type="file"]').count()).toBe(1); // still allowed: it is said, not refused
    await look(page, "checks-used-up");
    await page.close();
  });

  it("shows times in the viewer's time zone, with UTC in the title, and the same HTML from the server", async () => {
    // A deadline at 10:00 UTC five days on: 15:30 in Kolkata (UTC+5:30 all year), the same day.
    const endsAt = new Date(new Date(Date.now() + 5 * 86_400_000).setUTCHours(10, 0, 0, 0));
    const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(endsAt);
    const { slug } = await publishedCompetition({ endsAt: endsAt.toISOString() });
    const kolkata = await launchBrowser({ width: 1280, height: 800 }, { timezoneId: "Asia/Kolkata" });
    const page = await kolkata.newPage();
    const errors: string[] = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`/competitions/${slug}`);
    const closes = page.locator("header dl time").first();
    await expect.poll(() => closes.textContent()).toBe(`${day}, 15:30 GMT+5:30`);
    expect(await closes.getAttribute("title")).toBe(`${day}, 10:00 UTC`);
    expect(await closes.getAttribute("dateTime")).toBe(endsAt.toISOString());
    // The server renders UTC (it does not know the zone), and hydration finds what it rendered: no mismatch.
    expect(await (await fetch(`${APP_URL}/competitions/${slug}`)).text()).toContain(`>${day}, 10:00 UTC</time>`);
    expect(errors.filter((e) => /hydrat|did not match|error #41[89]|error #42[35]/i.test(e))).toEqual([]);
    await look(page, "local-times");
    await kolkata.close();
  });

  it("lets an organizer set the deadline in their own time zone, with the zone named and the UTC moment beside it", async () => {
    // The deadline at 10:00 UTC five days on, seen from Kolkata (UTC+5:30 all year): 15:30 there.
    const endsAt = new Date(new Date(Date.now() + 5 * 86_400_000).setUTCHours(10, 0, 0, 0));
    const owner = await newApiUser();
    const { slug } = await publishedCompetition({ endsAt: endsAt.toISOString(), organizer: owner.auth });
    const kolkata = await launchBrowser({ width: 1280, height: 800 }, { timezoneId: "Asia/Kolkata" });
    const page = await kolkata.newPage();
    await signInInBrowser(page, owner.email, owner.password);
    await page.goto(`/competitions/${slug}/manage`);
    const deadline = page.getByLabel("Deadline (GMT+5:30)");
    const day = endsAt.toISOString().slice(0, 10);
    await expect.poll(() => deadline.inputValue()).toBe(`${day}T15:30`);
    const utcOf = (at: Date) => new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(at);
    expect(await page.locator("#settings-endsAt-hint").textContent()).toBe(`${utcOf(endsAt)} UTC`);
    // 18:00 in Kolkata is 12:30 UTC: the hint follows as it is typed, and the server is sent that instant.
    await deadline.fill(`${day}T18:00`);
    const moved = new Date(endsAt.getTime() + 2.5 * 3_600_000);
    expect(await page.locator("#settings-endsAt-hint").textContent()).toBe(`${utcOf(moved)} UTC`);
    await page.getByRole("button", { name: "Review changes" }).click();
    await page
      .getByTestId("settings-review")
      .getByText(`Deadline: ${utcOf(endsAt)} UTC → ${utcOf(moved)} UTC`)
      .waitFor();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(async () => (await (await api(`/api/v1/competitions/${slug}`)).json()).endsAt).toBe(moved.toISOString());
    await look(page, "organizer-local-time");
    await kolkata.close();
  });
});
