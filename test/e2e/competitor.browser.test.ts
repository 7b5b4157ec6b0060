import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { focused, look, tabTo } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, newCompetitor, postCsv, publishedCompetition, signUpInBrowser } from "./helpers";

/**
 * Opens the file chooser from the focused file input with Space (as a keyboard user does) and picks
 * `name` with `csv` in it. In two whole-suite runs Chromium let one such press open nothing, the
 * focus still on the input (it passed alone): as a keyboard user would, it presses Space again,
 * at most twice more, and fails if the focus ever leaves the input.
 */
async function chooseWithKeyboard(page: Page, name: string, csv: string) {
  for (let press = 1; ; press++) {
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type), "the focus is on the file input").toBe("file");
    const chooser = page.waitForEvent("filechooser", { timeout: 10_000 });
    await page.keyboard.press("Space");
    try {
      return await (await chooser).setFiles({ name, mimeType: "text/csv", buffer: Buffer.from(csv) });
    } catch (error) {
      if (press === 3) throw error;
    }
  }
}

const activeTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.getAttribute("role") ?? null);

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
    await page.goto(`/competitions/${slug}/team`);
    await page.getByLabel("Team name").fill("Mona's Team");
    await page.getByLabel("I accept the rules of this competition").check();
    await page.getByRole("button", { name: "Create team" }).click();
    const code = (await page.getByTestId("invite-code").textContent())!.trim();
    expect((await api(`/api/v1/competitions/${slug}/teams/merge`, { headers: asker.auth, body: { inviteCode: code } })).status).toBe(201);
    await page.reload();
    await page.getByTestId("merge-requests").filter({ hasText: "Team Askers" }).waitFor();
    await look(page, "merge-request");
    await page.getByRole("button", { name: "Accept" }).click();
    await expect.poll(() => page.getByTestId("team-panel").locator("h3").textContent()).toBe("Askers");

    await api(`/api/v1/competitions/${slug}/teams/${asker.team.id}/disqualify`, { headers: organizer, body: { reason: "shared accounts" } });
    await page.reload();
    await page.getByTestId("disqualified").filter({ hasText: "shared accounts" }).waitFor();
    await page.close();
  });

  it("joins and submits with the keyboard alone: the focus shows at every step, lands on the new team and on each answer", async () => {
    const { slug } = await publishedCompetition({ daily: 3 });
    const page = await browser.newPage();
    await signUpInBrowser(page, "Kim Keyboard");

    // From the overview to the Team tab, and a team created, by keyboard.
    await page.goto(`/competitions/${slug}`);
    await look(page, "competition-overview-signed-in");
    await tabTo(page, (f) => f.tag === "a" && f.name === "Team");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/competitions/${slug}/team`);
    await tabTo(page, (f) => f.name === "Team name");
    await page.keyboard.type("Keyboard Crew");
    await tabTo(page, (f) => f.name === "I accept the rules of this competition");
    await page.keyboard.press("Space");
    await tabTo(page, (f) => f.name === "Create team");
    await page.keyboard.press("Enter");
    await page.getByTestId("team-panel").waitFor();
    await expect.poll(() => focused(page)).toMatchObject({ tag: "h3", name: "Keyboard Crew", visible: true });
    await page.getByRole("status").filter({ hasText: "You created the team Keyboard Crew." }).waitFor();
    expect(await page.getByTestId("budget").textContent()).toContain("5 of 5 left");
    await look(page, "team-joined");

    // A rejected file: its name and size and what it would use, then Submit; the rejection takes the focus and nothing is spent.
    await page.goto(`/competitions/${slug}/submissions`);
    await tabTo(page, (f) => f.name === "Note (optional): which experiment is this?");
    await page.keyboard.type("lag features, 300 trees");
    const chooser = await tabTo(page, (f) => f.tag === "input" && f.name.startsWith("Choose a predictions CSV"));
    expect(chooser.indicator).toMatch(/^outline 2px/); // the drop zone's ring
    await chooseWithKeyboard(page, "bad.csv", "id,prediction\nnobody,spike\n");
    const confirm = page.getByTestId("submission-confirm");
    expect((await confirm.textContent())!.replace(/\s+/g, " ")).toContain(
      "bad.csv · 27 bytesSubmitting it uses 1 of the 3 submissions your team has left today (the count resets at 00:00 UTC).",
    );
    await tabTo(page, (f) => f.name === "Submit bad.csv");
    await page.keyboard.press("Enter");
    await page.getByRole("alert").filter({ hasText: 'Line 2: id "nobody" is not in the test set' }).waitFor();
    expect(await activeTestId(page)).toBe("alert");
    expect((await focused(page)).visible).toBe(true);
    expect(await page.getByTestId("submissions-left").textContent()).toMatch(/^3 of 3 submissions left today/);

    // A good file, then the same file again (a new choice each time): the answer takes the focus.
    const good = demoPredictionsCsv({ skill: 0.7, seed: "kim" });
    for (const round of [1, 2, 3]) {
      await tabTo(page, (f) => f.tag === "input" && f.name.startsWith("Choose a predictions CSV"), { back: true });
      await chooseWithKeyboard(page, "p1.csv", good);
      await confirm.filter({ hasText: `Submitting it uses 1 of the ${4 - round} submissions` }).waitFor();
      if (round === 2) await look(page, "submit-confirmation");
      await tabTo(page, (f) => f.name === "Submit p1.csv");
      await page.keyboard.press("Enter");
      await page.getByTestId("submission-result").filter({ hasText: "Holdout checks left:" }).waitFor();
      expect(await activeTestId(page)).toBe("submission-result");
      expect((await focused(page)).visible).toBe(true);
      // The answer in words: a checked score with the ± the mechanism proves for it, the public score not checked without one (docs/mechanism.md §2.8).
      expect(await page.getByTestId("submission-result").textContent()).toMatch(
        /^(Public score, checked against the holdout\. 0\.\d+ ± 0\.\d+: your public score agrees|Checked on the holdout: one unit spent\. .* 0\.\d+ ± 0\.\d+\. Your public score, not checked: 0\.\d+\.)/,
      );
      await expect.poll(() => page.getByTestId("submission-row").count()).toBe(round);
    }
    // The day's three submissions are used: the chooser gives way to when the count resets.
    await page.getByTestId("no-submissions-left").waitFor();
    expect(await page.locator('input[type="file"]').count()).toBe(0);
    await page.getByTestId("submission-description").last().filter({ hasText: "lag features, 300 trees" }).waitFor();

    // Without a selection, the submission the board shows is the final one.
    await page.getByText("on the board", { exact: true }).first().waitFor();
    // The final selection by keyboard.
    await tabTo(page, (f) => f.tag === "input" && /as final$/.test(f.name));
    await page.keyboard.press("Space");
    await page.getByText("Your selected submissions count for the final standings.").waitFor();
    await look(page, "competitor-submissions");

    await page.goto(`/competitions/${slug}/team`);
    // The reset's time is the viewer's, once the page is hydrated (the server, not knowing the zone, writes the UTC date and time).
    await expect
      .poll(async () => (await page.getByTestId("daily-limits").textContent())!.replace(/\s+/g, " "))
      .toMatch(/^Submissions today: 3 of 3 used, 0 left; the count resets at 00:00 UTC\.$/);
    const download = page.waitForEvent("download");
    await page.goto(`/competitions/${slug}/submissions`);
    await page
      .getByRole("link", { name: /^Download p1\.csv/ })
      .first()
      .click();
    expect((await download).suggestedFilename()).toBe("p1.csv");
    await page.close();
  });

  it("sees the data files before joining without links, with what to do; after joining, downloads them", async () => {
    const { slug, organizer } = await publishedCompetition();
    const form = new FormData();
    form.set("file", new Blob(["id,household,hour,kwh\nhh000-t00,hh0,0,0.5\n"], { type: "text/csv" }), "test.csv");
    expect((await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments`, { method: "POST", headers: organizer, body: form })).status).toBe(201);
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.goto(`/competitions/${slug}/data`);
    expect(await page.getByTestId("download-gate").textContent()).toBe("Sign in and accept the rules (create or join a team) to download the data. Sign in to join");
    expect(await page.getByRole("link", { name: "test.csv" }).count()).toBe(0);
    expect(await page.getByTestId("data-file").locator("h3").textContent()).toBe("test.csv");
    expect(await page.getByTestId("data-file-size").textContent()).toBe("42 bytes");
    await look(page, "data-before-joining");

    await signUpInBrowser(page, "Dana Data");
    await page.goto(`/competitions/${slug}/data`);
    expect(await page.getByTestId("download-gate").textContent()).toMatch(/^Accept the rules \(create or join a team\) to download the data\./);
    await page.goto(`/competitions/${slug}/team`);
    await page.getByLabel("Team name").fill("Data Team");
    await page.getByLabel("I accept the rules of this competition").check();
    await page.getByRole("button", { name: "Create team" }).click();
    await page.getByTestId("team-panel").waitFor();
    await page.goto(`/competitions/${slug}/data`);
    expect(await page.getByTestId("download-gate").count()).toBe(0);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "test.csv" }).click();
    expect((await download).suggestedFilename()).toBe("test.csv");
    await look(page, "data-after-joining");
    await page.close();
  });

  it("reads the leaderboard on a phone: the table fits, the own team is marked, the budget shows", async () => {
    const { slug } = await publishedCompetition({ budget: 20 });
    let mine = "";
    for (const [i, name] of ["Gradient Gliders of the Northern Hemisphere", "Overfit Otters", "Random Forest Rangers", "Boost", "Lasso Llamas"].entries()) {
      const player = await newApiUser("phone");
      await api(`/api/v1/competitions/${slug}/teams`, { headers: player.auth, body: { name, acceptRules: true } });
      await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.6 + i * 0.05, seed: `phone-${i}` }), player.auth);
      if (i === 1) mine = player.email;
    }
    const phone = await launchBrowser({ width: 390, height: 844 });
    try {
      const page = await phone.newPage();
      await page.goto("/signin");
      await page.getByLabel("Email").fill(mine);
      await page.getByLabel("Password").fill("a long enough password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByTestId("account-link").waitFor();
      await page.goto(`/competitions/${slug}/leaderboard`);
      const board = page.getByTestId("leaderboard");
      await board.waitFor();
      // The table fits its frame: nothing to scroll, no hint that it scrolls.
      expect(await board.evaluate((table) => table.parentElement!.scrollWidth <= table.parentElement!.clientWidth)).toBe(true);
      expect(await page.getByTestId("scroll-hint").count()).toBe(0);
      const own = page.getByTestId("leaderboard-row").filter({ hasText: "your team" });
      expect(await own.count()).toBe(1);
      expect(await own.textContent()).toContain("Overfit Otters");
      for (const row of await page.getByTestId("leaderboard-row").all()) {
        const budget = row.getByText(/^\d+\/20$/);
        expect((await budget.boundingBox())!.x + (await budget.boundingBox())!.width).toBeLessThanOrEqual(390);
      }
      await look(page, "leaderboard-phone-signed-in");

      // My submissions on the phone: the Final checkbox is on the screen.
      await page.goto(`/competitions/${slug}/submissions`);
      const box = await page.getByRole("checkbox", { name: /as final/ }).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      await look(page, "submissions-phone");
    } finally {
      await phone.close();
    }
  });
});
