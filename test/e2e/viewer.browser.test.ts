import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { look } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, postCsv, publishedCompetition } from "./helpers";

describe.skipIf(!CHROMIUM_PATH)("a viewer in a real browser", () => {
  let browser: BrowserContext;
  let slug = "";
  let organizer: Record<string, string> = {};
  const teams = ["Aurora", "Borealis", "Cumulus", "Drizzle", "Eclipse"];

  beforeAll(async () => {
    ({ slug, organizer } = await publishedCompetition({ budget: 5 }));
    for (const [i, name] of teams.entries()) {
      const { auth } = await newApiUser(name.toLowerCase());
      await api(`/api/v1/competitions/${slug}/teams`, { headers: auth, body: { name, acceptRules: true } });
      for (let k = 0; k < 2; k++) await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.55 + i * 0.05 + k * 0.02, seed: `${name}-${k}` }), auth);
    }
    browser = await launchBrowser({ width: 1280, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("browses the live leaderboard, searches it and sees it update without a reload", async () => {
    const page = await browser.newPage();
    await page.goto(`/competitions/${slug}`);
    await page.getByRole("heading", { name: "How this leaderboard works" }).waitFor();
    expect(await page.title()).toBe("E2E competition · Quiltboard");
    await look(page, "competition-overview");
    await page.getByRole("navigation", { name: "Competition" }).getByRole("link", { name: "Leaderboard" }).click();
    await page.waitForURL(`**/competitions/${slug}/leaderboard`);
    await expect.poll(() => page.title()).toBe("Leaderboard · E2E competition · Quiltboard");
    expect(await page.getByRole("link", { name: "Leaderboard", exact: true }).getAttribute("aria-current")).toBe("page");
    const rows = page.getByTestId("leaderboard-row");
    await expect.poll(() => rows.count()).toBe(5);
    expect(await rows.first().locator("td").first().textContent()).toBe("1");
    // Every score carries the bound the mechanism proves for it (docs/mechanism.md §2.8) and shows the
    // decimals it supports; a holdout answer is marked.
    for (const text of await rows.allTextContents()) expect(text).toMatch(/^≈?\d+.+[01](\.\d+)?± [01](\.\d+)?(holdout)?\d/);
    expect(await page.getByText("best public score, checked against the hidden holdout").count()).toBeGreaterThan(0);
    await look(page, "leaderboard");

    await page.getByLabel("Search teams").fill("clip");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Eclipse");
    await page.getByLabel("Search teams").fill("");
    await expect.poll(() => rows.count()).toBe(5);

    // A new team submits while the viewer watches: it appears without a reload.
    const { auth } = await newApiUser("late");
    await api(`/api/v1/competitions/${slug}/teams`, { headers: auth, body: { name: "Latecomer", acceptRules: true } });
    await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.9, seed: "late" }), auth);
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(6);
    await page.close();
  });

  it("opens a team page with its score history", async () => {
    const page = await browser.newPage();
    await page.goto(`/competitions/${slug}/leaderboard`);
    await page.getByRole("link", { name: "Cumulus" }).click();
    await page.getByRole("heading", { name: "Cumulus", level: 2 }).waitFor();
    // The page names its competition: in its title and in the heading above the tabs.
    await expect.poll(() => page.title()).toBe("Cumulus · E2E competition · Quiltboard");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("E2E competition Live");
    const chart = page.getByRole("img", { name: /Score history: #1/ });
    await chart.waitFor();
    // The chart fills its card, and the leaderboard's score is on its scale.
    expect((await chart.boundingBox())!.width).toBeGreaterThan(0.9 * (await page.locator("#history").boundingBox())!.width - 60);
    expect(await chart.getAttribute("aria-label")).toMatch(/; leaderboard score 0\.\d+$/);
    expect(await page.getByText(/of 2 were checked on the holdout/).count()).toBe(1);
    await look(page, "team");
    await page.close();
  });

  it("shows the final standings with the shake-up after the close", async () => {
    expect((await api(`/api/v1/competitions/${slug}/close`, { method: "POST", headers: organizer })).status).toBe(200);
    const page = await browser.newPage();
    await page.goto(`/competitions/${slug}/leaderboard`);
    const final = page.getByTestId("final-standings");
    await final.waitFor();
    expect(await final.locator("tbody tr").count()).toBe(6);
    // The board no longer says it refreshes, and the header gives the day it closed, not the old deadline.
    await page.getByText("as it stood at the close").waitFor();
    const today = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date());
    expect(await page.locator("header dl").textContent()).toContain(`Closed:${today}`);
    await look(page, "final-standings");
    await page.close();
  });

  it("works on a phone without horizontal scrolling", async () => {
    const phone = await launchBrowser({ width: 390, height: 844 });
    const page = await phone.newPage();
    await page.goto(`/competitions/${slug}/leaderboard`);
    await page.getByTestId("final-standings").waitFor();
    await look(page, "leaderboard-phone");
    await page.goto(`/competitions/${slug}`);
    await look(page, "competition-overview-phone");
    await phone.close();
  });
});
