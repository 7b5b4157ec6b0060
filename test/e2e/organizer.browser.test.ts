import { randomBytes } from "node:crypto";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv, demoSolutionCsv } from "@/prisma/demo-solution";
import { look } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, postCsv, publishedCompetition, runCalibrateCli, SCREENSHOTS, signInInBrowser, signUpInBrowser } from "./helpers";

const n4 = (x: number) => Number(x.toPrecision(4)).toString();

/** The publish checklist as it reads: each item done (✓) or to do (✗), with what it says. */
async function checklist(page: Page): Promise<string[]> {
  return (await page.getByTestId("publish-checklist").locator("li[data-testid^=check-]").allTextContents()).map((t) => t.replace(/\s+/g, " ").trim());
}

describe.skipIf(!CHROMIUM_PATH)("an organizer in a real browser", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser({ width: 1280, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("goes from sign-up to a published competition with a Markov chain fitted from the state column, its checklist filling in", async () => {
    const page = await browser.newPage();
    const slug = `browser-${randomBytes(4).toString("hex")}`;

    await signUpInBrowser(page, "Olga Organizer");

    // "New competition" is in the header of every page for a signed-in user.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "New competition" }).click();
    await page.waitForURL("**/competitions/new");
    await page.getByLabel("Title").fill("Meter Spikes 2027");
    expect(await page.getByLabel("Slug (the address)").inputValue()).toBe("meter-spikes-2027"); // from the title
    await page.getByLabel("Slug (the address)").fill(slug);
    await page.getByLabel("Title").fill("Meter Spikes"); // an edited slug stays
    expect(await page.getByLabel("Slug (the address)").inputValue()).toBe(slug);
    await page.getByLabel("Description (Markdown)").fill("Predict **spikes**.\n\n| file | rows |\n| --- | --- |\n| train.csv | 100 |\n");
    await page.getByLabel("Starts (UTC, optional)").fill("2026-01-01T00:00");
    await page.getByLabel("Ends (UTC)").fill("2026-01-31T00:00");
    await page.getByRole("status").filter({ hasText: "This deadline has passed." }).waitFor();
    await look(page, "new-competition-past-deadline");
    await page.getByRole("button", { name: "Create draft" }).click();
    await page.waitForURL(`**/competitions/${slug}/manage`);
    expect(await checklist(page)).toEqual([
      "✗To do: Deadline: The end date has passed; move it to the future before publishing.",
      "✗To do: Solution: Upload the solution before publishing.",
      "✓Done: Correlation model: independent rows",
      // A new competition runs the recommended settings, planned once the solution is there.
      "✗To do: Mechanism: Upload the solution first: the mechanism is planned for its holdout rows.",
    ]);
    expect(await page.getByRole("button", { name: "Publish" }).isDisabled()).toBe(true);
    await page.getByLabel("Start (UTC, optional)").fill("2027-01-01T00:00");
    await page.getByLabel("Deadline (UTC)").fill("2027-01-31T00:00");
    await page.getByRole("button", { name: "Review changes" }).click();
    await page.getByTestId("settings-review").getByText("Deadline: 31 Jan 2026, 00:00 UTC → 31 Jan 2027, 00:00 UTC").waitFor();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await page.getByTestId("check-deadline").filter({ hasText: "closes 2027-01-31 00:00 UTC" }).waitFor();

    await page.getByLabel(/Solution CSV/).setInputFiles({ name: "solution.csv", mimeType: "text/csv", buffer: Buffer.from(demoSolutionCsv()) });
    await page.getByRole("status").filter({ hasText: "Stored 2,880 rows" }).waitFor();
    await page.getByTestId("solution-summary").filter({ hasText: "2,880" }).waitFor();
    // The solution declares households and states: the checklist now reads a Markov chain, fitted from them.
    await page.getByTestId("check-correlation").filter({ hasText: "a Markov chain" }).waitFor();

    await page.getByRole("radio", { name: /Markov chain/ }).check();
    await page.getByRole("radio", { name: /Fit P from the state column/ }).check();
    await page.getByRole("button", { name: "Save correlation model" }).click();
    await page.getByTestId("correlation-summary").filter({ hasText: "32 independent chains" }).waitFor();

    const panel = page.getByTestId("mechanism-panel");
    await panel.scrollIntoViewIfNeeded();
    await page.getByTestId("plan-guarantee").waitFor();
    await page.getByRole("button", { name: "Save mechanism" }).click();
    await page.getByRole("status").filter({ hasText: "Saved. These settings are used when you publish." }).waitFor();
    await page.getByRole("button", { name: "Run attack preview" }).click();
    await page
      .getByTestId("attack-preview")
      .getByText(/Simulated on 1,536 holdout rows/)
      .waitFor({ timeout: 60_000 });
    await page.getByRole("img", { name: /Reported accuracy of the attacker's majority vote/ }).waitFor();
    await panel.screenshot({ path: path.join(SCREENSHOTS, "mechanism-panel.png") });

    // The page's numbers are the planner's: the same as `npm run calibrate` for the same inputs.
    const correlation = await (await page.request.put(`/api/v1/competitions/${slug}/correlation`, { data: { model: { kind: "markov", fit: { alpha: 1 } } } })).json();
    const cli = await runCalibrateCli({
      n: correlation.n,
      publicRows: 1344,
      model: correlation.model,
      mechanism: { mode: "recommended", budget: 20, maxQueries: 5 * 30 },
    });
    expect(await page.getByTestId("plan-budget").textContent()).toBe(String(cli.budget));
    expect(await page.getByTestId("plan-sigma").textContent()).toBe(n4(cli.sigma as number));
    expect(await page.getByTestId("plan-epsdp").textContent()).toBe(n4(cli.epsDp as number));
    expect(await page.getByTestId("plan-epsbdp").textContent()).toBe(n4(cli.epsBdp as number));
    expect(await page.getByTestId("plan-guarantee").textContent()).toBe((cli.guarantee as { explanation: string }).explanation);

    // Everything is in place: the checklist is all done and Publish (white on emerald-700) opens.
    await expect
      .poll(() => checklist(page))
      .toEqual([
        "✓Done: Deadline: closes 2027-01-31 00:00 UTC",
        "✓Done: Solution: 2,880 rows: 1,344 public, 1,536 holdout",
        "✓Done: Correlation model: a Markov chain",
        `✓Done: Mechanism: σ = ${(cli.sigma as number).toPrecision(3)}, T = ${(cli.threshold as number).toPrecision(3)}, budget ${cli.budget}`,
      ]);
    // 1,536 holdout rows promise nothing formal: the page says so before Publish, in words.
    await page
      .getByTestId("acknowledgments")
      .getByText(/Competitors will read that no formal guarantee covers their scores\./)
      .waitFor();
    await look(page, "manage-draft-ready");
    await page.getByRole("button", { name: "Publish" }).click();
    const dialog = page.getByRole("dialog", { name: "Publish the competition?" });
    await dialog.waitFor();
    await look(page, "manage-publish-dialog");
    // The dialog asks for a tick beside each: without it, the browser keeps the dialog open.
    await dialog.getByRole("button", { name: "Publish" }).click();
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole("checkbox", { name: /No formal guarantee/ }).check();
    await dialog.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Live").first().waitFor();
    await page.getByRole("button", { name: "Close competition" }).waitFor();
    await look(page, "manage-published");
    // The overview renders the description's table.
    await page.goto(`/competitions/${slug}`);
    expect(await page.locator("#overview table td").allTextContents()).toEqual(["train.csv", "100"]);
    await page.close();
  });

  it("shows the line of each problem when a solution is rejected", async () => {
    const page = await browser.newPage();
    await signUpInBrowser(page, "Rita Rejected");
    const slug = `reject-${randomBytes(4).toString("hex")}`;
    const created = await page.request.post("/api/v1/competitions", { data: { slug, title: "Rejections", metric: { name: "accuracy" }, endsAt: "2030-01-01T00:00:00Z" } });
    expect(created.status()).toBe(201);
    await page.goto(`/competitions/${slug}/manage`);
    await page.getByLabel(/Solution CSV/).setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("id,label,split\na,x,public\na,y,holdout\nb,z,later\n") });
    const errors = page.getByTestId("solution-errors");
    await errors.waitFor();
    expect(await errors.locator("li").allTextContents()).toEqual(['Line 3: duplicate id "a" (first on line 2)', 'Line 4: split must be public or holdout, found "later"']);

    // A solution whose households have rows in both splits is stored, with a warning at once.
    const cut = "id,label,split,group\na,x,public,h1\nb,y,holdout,h1\nc,x,holdout,h2\n";
    await page.getByLabel(/Solution CSV/).setInputFiles({ name: "cut.csv", mimeType: "text/csv", buffer: Buffer.from(cut) });
    await page.getByTestId("solution-warning").waitFor();
    expect(await page.getByTestId("solution-warning").textContent()).toMatch(/^1 group has rows in both the public and the holdout split \(h1\).*cannot be published\.$/);
    await page.close();
  });

  it("reviews every submission in the console, filters it, and disqualifies a team whose page then says why", async () => {
    const organizer = await newApiUser("console");
    const { slug } = await publishedCompetition({ organizer: organizer.auth });
    for (const [name, seed] of [
      ["Alpha Squad", "a"],
      ["Bravo Squad", "b"],
    ]) {
      const player = await newApiUser("player");
      await api(`/api/v1/competitions/${slug}/teams`, { headers: player.auth, body: { name, acceptRules: true } });
      expect((await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed }), player.auth)).status).toBe(201);
    }
    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage/operations#submissions`);
    await expect.poll(() => page.getByTestId("console-row").count()).toBe(2);
    await page.getByLabel("Filter").fill("bravo");
    await expect.poll(() => page.getByTestId("console-row").count()).toBe(1);
    // Disqualifying is done from one team's drill-down, in a dialog that names the team and asks why.
    expect(await page.getByRole("button", { name: /^Disqualify/ }).count()).toBe(0);
    await page.getByRole("button", { name: "Only team Bravo Squad" }).click();
    await page.getByRole("button", { name: "Disqualify Bravo Squad…" }).click();
    const dialog = page.getByRole("dialog", { name: "Disqualify team Bravo Squad?" });
    await dialog.getByLabel("Reason (shown on the team's page)").fill("shared predictions with another team");
    await look(page, "manage-disqualify-dialog");
    await dialog.getByRole("button", { name: "Disqualify Bravo Squad" }).click();
    await page.getByRole("button", { name: "Reinstate Bravo Squad" }).waitFor();
    await look(page, "manage-console");
    const board = await (await api(`/api/v1/competitions/${slug}/leaderboard`)).json();
    expect(board.entries.map((e: { team: string }) => e.team)).toEqual(["Alpha Squad"]);
    const teamId = (await (await api(`/api/v1/competitions/${slug}/submissions/all`, { headers: organizer.auth })).json()).submissions.find(
      (s: { team: string }) => s.team === "Bravo Squad",
    ).teamId;
    await page.goto(`/competitions/${slug}/teams/${teamId}`);
    expect(await page.getByTestId("disqualified").textContent()).toBe("This team was disqualified by the organizers: shared predictions with another team");
    await page.close();
  });

  it("lives a competition's day: moves the deadline after a review, drills into a team, shows a baseline, sees the automatic close and the late board", async () => {
    const organizer = await newApiUser("day");
    const { slug } = await publishedCompetition({ organizer: organizer.auth, lateSubmissions: true });
    const players = [];
    for (const [name, seed] of [
      ["Early Birds", "e"],
      ["Night Owls", "n"],
    ]) {
      const player = await newApiUser("player");
      await api(`/api/v1/competitions/${slug}/teams`, { headers: player.auth, body: { name, acceptRules: true } });
      expect((await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed }), player.auth)).status).toBe(201);
      players.push(player);
    }
    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage#settings`);

    // Extend the deadline: the review lists the change and the plan's new m before anything is saved.
    const before = await (await api(`/api/v1/competitions/${slug}`)).json();
    const endsAt = new Date(Date.parse(before.endsAt) + 5 * 86_400_000).toISOString().slice(0, 16);
    await page.getByLabel("Deadline (UTC)").fill(endsAt);
    await page.getByLabel("Title").fill("E2E competition, extended");
    await page.getByRole("button", { name: "Review changes" }).click();
    const review = page.getByTestId("settings-review");
    await review.getByText(/^Deadline:/).waitFor();
    expect(await review.textContent()).toContain(`m (submissions per team the guarantee covers): ${before.mechanism.maxQueries} → ${before.mechanism.maxQueries + 500}`);
    expect((await (await api(`/api/v1/competitions/${slug}`)).json()).title).toBe("E2E competition"); // nothing saved yet
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const after = await (await api(`/api/v1/competitions/${slug}`)).json();
    expect([after.title, after.endsAt.slice(0, 16), after.mechanism.sigma]).toEqual(["E2E competition, extended", endsAt, before.mechanism.sigma]);
    await page
      .getByTestId("change-log")
      .getByText(/Title E2E competition → E2E competition, extended/)
      .waitFor();

    // The per-team drill-down, on the operations page.
    await page.getByRole("navigation", { name: "Manage" }).getByRole("link", { name: "Operations" }).click();
    await page.getByRole("button", { name: "Only team Night Owls" }).click();
    await expect.poll(() => page.getByTestId("console-row").count()).toBe(1);
    expect(await page.getByTestId("team-drill-down").textContent()).toMatch(/^Night Owls: 1 submission \(/);

    // A sandbox test shown as a baseline on the public leaderboard, back on the setup page.
    await page.goto(`/competitions/${slug}/manage#sandbox`);
    await page
      .getByLabel("Predictions CSV")
      .setInputFiles({ name: "majority.csv", mimeType: "text/csv", buffer: Buffer.from(demoPredictionsCsv({ skill: 0.5, seed: "majority" })) });
    await page.getByRole("button", { name: "Test against the key" }).click();
    await page.getByTestId("sandbox").getByText("majority.csv").waitFor();
    await page.getByLabel(/^Baseline name for majority\.csv/).fill("Coin flip");
    await page.getByTestId("sandbox").getByRole("button", { name: "Show" }).click();
    await page
      .getByTestId("sandbox")
      .getByText(/“Coin flip”, shown as/)
      .waitFor();
    await page.goto(`/competitions/${slug}/leaderboard`);
    await page.getByTestId("baseline-row").getByText("Coin flip").waitFor();
    expect(await page.getByTestId("leaderboard-row").count()).toBe(2);

    // The deadline arrives: the scheduler closes the competition and the final standings appear.
    expect((await api(`/api/v1/competitions/${slug}`, { method: "PATCH", headers: organizer.auth, body: { endsAt: new Date(Date.now() + 3000).toISOString() } })).status).toBe(200);
    await expect.poll(async () => (await (await api(`/api/v1/competitions/${slug}`)).json()).status, { timeout: 30_000, interval: 500 }).toBe("closed");
    const late = await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.9, seed: "late" }), players[0].auth);
    expect(late.status).toBe(201);
    expect((await late.json()).answer.kind).toBe("late");
    await page.reload();
    await page.getByTestId("final-standings").waitFor();
    expect(await page.getByTestId("late-board").getByRole("row").count()).toBe(2); // header and Early Birds
    await look(page, "late-board");
    await page.close();
  });

  it("changes a draft's metric, start, team size and decimals, and deletes the draft", async () => {
    const organizer = await newApiUser("drafter");
    const slug = `draft-${randomBytes(4).toString("hex")}`;
    await api("/api/v1/competitions", { headers: organizer.auth, body: { slug, title: "Draft to change", metric: { name: "accuracy" }, endsAt: "2030-01-01T00:00:00Z" } });
    await browser.clearCookies();
    const page = await browser.newPage();
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage`);
    await page.getByLabel("Metric").selectOption("absolute-error");
    await page.getByLabel("Label range: lowest").fill("0");
    await page.getByLabel("Label range: highest").fill("10");
    await page.getByLabel("Largest team").fill("3");
    await page.getByLabel("Decimals shown").fill("3");
    await page.getByLabel("Start (UTC, optional)").fill("2029-06-01T12:00");
    await page.getByRole("button", { name: "Review changes" }).click();
    const review = page.getByTestId("settings-review");
    await review.waitFor();
    expect(await review.locator("li").allTextContents()).toEqual([
      "Metric: Accuracy → Mean absolute error (labels 0 to 10)",
      "Start: (none) → 1 Jun 2029, 12:00 UTC",
      "Largest team: 4 → 3",
      "Decimals shown: 5 → 3",
    ]);
    await look(page, "manage-draft-review");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect(await (await api(`/api/v1/competitions/${slug}`, { headers: organizer.auth })).json()).toMatchObject({
      metric: { name: "absolute-error", params: { lo: 0, hi: 10 } },
      startsAt: "2029-06-01T12:00:00.000Z",
      maxTeamSize: 3,
      displayPrecision: 3,
    });

    await page.getByRole("button", { name: "Delete draft" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this draft?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await dialog.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Delete draft" }).click();
    await dialog.getByRole("button", { name: "Delete draft" }).click();
    await page.waitForURL((url) => url.pathname === "/competitions");
    expect((await api(`/api/v1/competitions/${slug}`, { headers: organizer.auth })).status).toBe(404);
    await page.close();
  });
});
