import type { BrowserContext, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv } from "@/prisma/demo-solution";
import { look, tabTo } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, postCsv, publishedCompetition, signInInBrowser } from "./helpers";

/** The page's sections as their headings read. */
const sections = (page: Page) => page.locator("main section[aria-labelledby] > div > h2").allTextContents();

/**
 * What the page asks the server for during `act` (a save's router.refresh): the React Server
 * Component answers, read through a route that passes each on whole.
 */
async function refreshedWith(page: Page, act: () => Promise<void>): Promise<string> {
  const answers: string[] = [];
  const handler = async (route: Route) => {
    if (route.request().headers()["rsc"] !== "1") return route.fallback();
    const response = await route.fetch();
    const body = await response.text();
    answers.push(body);
    await route.fulfill({ response, body });
  };
  await page.route("**/competitions/**", handler);
  await act();
  await page.unroute("**/competitions/**", handler);
  expect(answers.length, "the save refreshed the page").toBeGreaterThan(0);
  return answers.join("\n");
}

// The manage page in two: setup (what is configured) and operations (what is run), each reading its
// own sections, reached from each other with the keyboard; a save refreshes the page it is on and
// nothing of the other; links from before the split (`/manage#webhooks`) land on the section.
describe.skipIf(!CHROMIUM_PATH)("the manage pages, setup and operations", () => {
  let desk: BrowserContext;
  let phone: BrowserContext;
  beforeAll(async () => {
    [desk, phone] = await Promise.all([launchBrowser({ width: 1280, height: 900 }), launchBrowser({ width: 390, height: 844 })]);
  });
  afterAll(async () => {
    await Promise.all([desk?.close(), phone?.close()]);
  });

  it("shows each page's sections, moves between them by keyboard, and refreshes only the page a save is on", async () => {
    const organizer = await newApiUser("split");
    const { slug } = await publishedCompetition({ organizer: organizer.auth });
    const player = await newApiUser("banned");
    await api(`/api/v1/competitions/${slug}/teams`, { headers: player.auth, body: { name: "Split Team", acceptRules: true } });
    expect((await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.7, seed: "split" }), player.auth)).status).toBe(201);

    const page = await desk.newPage();
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage`);
    expect(await sections(page)).toEqual(["Settings", "Solution", "Public data files", "Correlation model", "Mechanism", "Sandbox and baselines", "Access", "Change log"]);
    const tabs = page.getByRole("navigation", { name: "Manage" });
    expect(await tabs.getByRole("link", { name: "Setup" }).getAttribute("aria-current")).toBe("page");
    await look(page, "manage-setup");

    // A save on the setup page: its change log shows it, and the refresh carries nothing of operations.
    const setupRefresh = await refreshedWith(page, async () => {
      await page.getByLabel("Verified email addresses only").check();
      await page.getByRole("button", { name: "Save access rules" }).click();
      await page.getByTestId("change-log").getByText("Who may take part anyone with an account → verified email addresses only").waitFor();
    });
    expect(setupRefresh).toContain("change-log");
    expect(setupRefresh).not.toContain("Holdout health");
    expect(setupRefresh).not.toContain("Split Team");

    // To operations with the keyboard, from the top of the page.
    await page.reload();
    await tabTo(page, (f) => f.name === "Operations");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/competitions/${slug}/manage/operations`);
    expect(await tabs.getByRole("link", { name: "Operations" }).getAttribute("aria-current")).toBe("page");
    expect(await sections(page)).toEqual([
      "Submissions",
      "Signs of one person behind several teams",
      "Holdout health",
      "Requests to take part",
      "Banned users",
      "Announcements",
      "Webhooks",
      "Organizers",
    ]);
    expect(await page.getByTestId("console-row").count()).toBe(1);
    await look(page, "manage-operations");

    // A save on the operations page: the ban is listed at once, and the refresh carries nothing of setup.
    const operationsRefresh = await refreshedWith(page, async () => {
      await page.locator("#ban-email").fill(player.email);
      await page.locator("#ban-reason").fill("one person, two teams");
      await page.getByRole("button", { name: "Ban from this competition" }).click();
      await page.getByTestId("bans").getByText(player.email, { exact: false }).waitFor();
    });
    expect(operationsRefresh).toContain("one person, two teams");
    expect(operationsRefresh).not.toContain("Sandbox and baselines");
    expect(operationsRefresh).not.toContain("Correlation model");

    // And back to setup, by keyboard too.
    await page.reload();
    await tabTo(page, (f) => f.name === "Setup");
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/competitions/${slug}/manage`);

    // A link from before the split lands on the section it names: arriving with it, or following it on the page.
    await page.goto(`/competitions/${slug}`);
    await page.goto(`/competitions/${slug}/manage#webhooks`);
    await page.waitForURL(`**/competitions/${slug}/manage/operations#webhooks`, { waitUntil: "commit" });
    await page.getByLabel("Receiver URL").waitFor();
    await page.goto(`/competitions/${slug}/manage`);
    await page.evaluate(() => (window.location.hash = "organizers"));
    await page.waitForURL(`**/competitions/${slug}/manage/operations#organizers`, { waitUntil: "commit" });
    await page.getByLabel("Invite a co-organizer by email").waitFor();
    await page.close();

    const small = await phone.newPage();
    await signInInBrowser(small, organizer.email, organizer.password);
    for (const [path, name] of [
      ["", "manage-setup-390"],
      ["/operations", "manage-operations-390"],
    ]) {
      await small.goto(`/competitions/${slug}/manage${path}`);
      await look(small, name);
    }
    await small.close();
  });
});
