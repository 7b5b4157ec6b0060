import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { api, CHROMIUM_PATH, launchBrowser, newCompetitor, publishedCompetition, SCREENSHOTS, signUpInBrowser } from "./helpers";

describe.skipIf(!CHROMIUM_PATH)("a competitor in a real browser", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser({ width: 1280, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("sees another team's merge request in its panel and accepts it; a disqualified team sees why", async () => {
    const { slug, organizer } = await publishedCompetition();
    const asker = await newCompetitor(slug, "Askers");
    const page = await browser.newPage();
    await browser.clearCookies();
    await signUpInBrowser(page, "Mona Merger");
    await page.goto(`/competitions/${slug}`);
    await page.getByLabel("Team name").fill("Mona's Team");
    await page.getByLabel("I accept the rules of this competition").check();
    await page.getByRole("button", { name: "Create team" }).click();
    const code = (await page.getByTestId("invite-code").textContent())!.trim();
    expect((await api(`/api/v1/competitions/${slug}/teams/merge`, { headers: asker.auth, body: { inviteCode: code } })).status).toBe(201);
    await page.reload();
    await page.getByTestId("merge-requests").filter({ hasText: "Team Askers" }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, "merge-request.png") });
    await page.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => page.getByTestId("team-panel").locator("p.text-lg").textContent()).toBe("Askers");

    await api(`/api/v1/competitions/${slug}/teams/${asker.team.id}/disqualify`, { headers: organizer, body: { reason: "shared accounts" } });
    await page.reload();
    await page.getByTestId("disqualified").filter({ hasText: "shared accounts" }).waitFor();
    await page.close();
  });

  it("signs up, forms a team, submits, sees the answer and picks final submissions", async () => {
    const { slug } = await publishedCompetition();
    const page = await browser.newPage();
    await signUpInBrowser(page, "Carla Competitor");

    await page.goto(`/competitions/${slug}`);
    await page.getByLabel("Team name").fill("Carla's Crew");
    await page.getByLabel("I accept the rules of this competition").check();
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByTestId("team-panel").waitFor();
    expect(await page.getByTestId("budget").textContent()).toContain("5 of 5 left");

    // A rejected file: the line is named and nothing is spent.
    await page.getByLabel("Predictions CSV").setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("id,prediction\nnobody,spike\n") });
    await page.getByRole("alert").filter({ hasText: 'Line 2: id "nobody" is not in the test set' }).waitFor();

    for (const [i, skill] of [0.6, 0.75].entries()) {
      if (i === 1) await page.getByLabel("Note (optional): which experiment is this?").fill("lag features, 300 trees");
      await page.getByLabel("Predictions CSV").setInputFiles({ name: `p${i}.csv`, mimeType: "text/csv", buffer: Buffer.from(demoPredictionsCsv({ skill, seed: `carla-${i}` })) });
      await page.getByTestId("submission-result").filter({ hasText: "Holdout checks left:" }).waitFor();
      await expect.poll(() => page.getByTestId("submission-row").count()).toBe(i + 1);
    }
    await page.getByTestId("submission-description").filter({ hasText: "lag features, 300 trees" }).waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: /^Download p1\.csv/ }).click();
    expect((await download).suggestedFilename()).toBe("p1.csv");
    await page.reload();
    expect((await page.getByTestId("daily-limits").textContent())!.replace(/\s+/g, " ")).toMatch(/^Submissions today: 2 of 100 used, 98 left; the count resets at 00:00 UTC\.$/);
    await page.getByLabel("Predictions CSV").setInputFiles({ name: "p2.csv", mimeType: "text/csv", buffer: Buffer.from(demoPredictionsCsv({ skill: 0.7, seed: "carla-2" })) });
    await page.getByTestId("submission-result").filter({ hasText: "Holdout checks left:" }).waitFor();
    // The list refreshes after the answer; a click during that refresh could land on a row being replaced.
    await expect.poll(() => page.getByTestId("submission-row").count()).toBe(3);
    const result = await page.getByTestId("submission-result").textContent();
    // The answer in words, its scores to the decimals their ± supports (docs/mechanism.md §2.6).
    expect(result).toMatch(
      /^(Public score, checked against the holdout\. 0\.\d+ ± 0\.\d+: your public score agrees|Checked on the holdout: one unit spent\. .* 0\.\d+ ± 0\.\d+ \(95 %\)\. Your public score, not checked: 0\.\d+ ± 0\.\d+)/,
    );
    await page.getByText("on the board", { exact: true }).waitFor();

    const checkboxes = page.getByRole("checkbox", { name: /as final/ });
    await checkboxes.nth(1).click();
    await expect.poll(() => checkboxes.nth(1).isChecked()).toBe(true);
    await page.getByText("Your selected submissions count for the final standings.").waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, "competitor-submissions.png"), fullPage: true });
    await page.close();
  });
});
