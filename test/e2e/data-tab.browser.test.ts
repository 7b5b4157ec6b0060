import type { BrowserContext, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { look } from "./a11y";
import { APP_URL, CHROMIUM_PATH, launchBrowser, publishedCompetition, signUpInBrowser } from "./helpers";

// The Data tab as competitors meet it (issue 41 step 4): each file's size and SHA-256, and for a
// CSV file the preview its upload computed, the first rows and a summary per column, shown once
// the viewer has accepted the rules; a file that is not CSV says why it has none. At 1280 and
// 390 px, with axe-core's checks.

const rows = Array.from(
  { length: 40 },
  (_, i) => `${i + 1},${i % 4 ? (i * 1.5).toFixed(1) : ""},"Lyon, ${["north", "south"][i % 2]}",2024-03-${String((i % 28) + 1).padStart(2, "0")}`,
);
const csv = `id,price,place,day\r\n${rows.join("\r\n")}\r\n`;

async function upload(slug: string, organizer: Record<string, string>, name: string, body: string | Uint8Array) {
  const form = new FormData();
  form.set("file", new Blob([typeof body === "string" ? body : new Uint8Array(body)]), name);
  const answer = await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments`, { method: "POST", body: form, headers: organizer });
  expect(answer.status).toBe(201);
  return (await answer.json()) as { id: string; sha256: string; size: number };
}

/** The text of each cell of the table `testId` inside `file`, by row. */
const cells = (file: Locator, testId: string) =>
  file
    .getByTestId(testId)
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => c.textContent ?? "")));

describe.skipIf(!CHROMIUM_PATH)("the Data tab in a real browser", () => {
  let slug = "";
  let file: { id: string; sha256: string; size: number };
  const browsers: BrowserContext[] = [];

  beforeAll(async () => {
    let organizer: Record<string, string>;
    ({ slug, organizer } = await publishedCompetition());
    file = await upload(slug, organizer, "train.csv", csv);
    await upload(slug, organizer, "images.bin", Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13));
  });
  afterAll(async () => {
    for (const b of browsers) await b.close();
  });

  for (const width of [1280, 390]) {
    it(`shows a file's size and SHA-256 to anyone and its preview and summary once the rules are accepted (${width} px)`, async () => {
      const browser = await launchBrowser({ width, height: 900 });
      browsers.push(browser);
      const page = await browser.newPage();
      await page.goto(`/competitions/${slug}/data`);
      const train = page.getByTestId("data-file").filter({ has: page.getByRole("heading", { name: "train.csv" }) });
      await train.waitFor();
      expect(file.size).toBeGreaterThan(1024);
      expect(await train.getByTestId("data-file-sha256").textContent()).toBe(file.sha256);
      expect(await train.getByTestId("data-file-size").textContent()).toBe(`${(file.size / 1024).toFixed(1)} KiB (${file.size.toLocaleString("en")} bytes)`);
      expect(await page.getByTestId("data-preview").count()).toBe(0);
      // Each file is listed once, in its own section: no table of the files above them; no link before the rules are accepted.
      expect(await page.locator("main").getByText("train.csv", { exact: true }).count()).toBe(1);
      expect(await page.getByTestId("data-file").locator("h3").allTextContents()).toEqual(["images.bin", "train.csv"]);
      expect(await page.getByRole("link", { name: "train.csv" }).count()).toBe(0);
      await look(page, `data-tab-gated-${width}`);

      await signUpInBrowser(page, `Dana Data${width}`);
      await page.goto(`/competitions/${slug}/team`);
      await page.getByLabel("Team name").fill(`Data readers ${width}`);
      await page.getByLabel("I accept the rules of this competition").check();
      await page.getByRole("button", { name: "Create team" }).click();
      await page.getByTestId("invite-code").waitFor();
      await page.goto(`/competitions/${slug}/data`);
      await page.getByRole("table", { name: "The first 10 rows of train.csv" }).waitFor();
      expect(await page.getByRole("table", { name: "The first 10 rows of train.csv" }).locator("thead th").allTextContents()).toEqual(["id", "price", "place", "day"]);
      expect((await cells(train, "data-preview")).slice(0, 3)).toEqual([
        ["1", "", "Lyon, north", "2024-03-01"],
        ["2", "1.5", "Lyon, south", "2024-03-02"],
        ["3", "3.0", "Lyon, north", "2024-03-03"],
      ]);
      expect(await cells(train, "data-summary")).toEqual([
        ["id", "integer", "0", "40", "1 to 40"],
        ["price", "number", "10", "30", "1.5 to 58.5"],
        ["place", "text", "0", "2", "—"],
        ["day", "date", "0", "28", "2024-03-01 to 2024-03-28"],
      ]);
      expect(await page.getByRole("table", { name: "The columns of train.csv, over all 40 rows" }).locator("tbody th[scope=row]").count()).toBe(4);
      await page.getByText("No preview: not a CSV file.").waitFor();
      expect(await page.locator("main").getByText("train.csv", { exact: true }).count()).toBe(1);
      expect(await train.getByRole("link", { name: "train.csv" }).getAttribute("href")).toBe(`/api/v1/competitions/${slug}/attachments/${file.id}`);
      // The hash wraps inside the screen rather than widening the page (look() checks the page at 390 px).
      const hash = await train.getByTestId("data-file-sha256").boundingBox();
      expect(hash!.x + hash!.width).toBeLessThanOrEqual(width);
      await look(page, `data-tab-${width}`);
      await page.close();
    });
  }
});
