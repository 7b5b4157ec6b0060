import { createHash, randomBytes } from "node:crypto";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { look } from "./a11y";
import { APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, publishedCompetition, signInInBrowser } from "./helpers";

// The manage page's data file upload as an organizer meets it: sent in parts with a progress bar,
// paused between parts and resumed, and the file's SHA-256 shown once the server has checked it;
// axe-core at 1280 and 390 px wide.

const MiB = 1024 * 1024;

describe.skipIf(!CHROMIUM_PATH)("a resumable data file upload on the manage page", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser({ width: 1280, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("shows its progress, pauses and resumes, and shows the SHA-256 when done", { timeout: 300_000 }, async () => {
    const organizer = await newApiUser("uploader");
    const { slug } = await publishedCompetition({ organizer: organizer.auth });
    const file = randomBytes(2 * 8 * MiB + 12_345); // three parts of 8 MiB
    const page = await browser.newPage();
    // Each part waits 1.5 s before it leaves the browser, so that the page can be paused between parts.
    let held = 0;
    await page.route("**/attachments/uploads/*/parts/*", async (route) => {
      held++;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => {}); // a paused part was aborted meanwhile
    });
    await signInInBrowser(page, organizer.email, organizer.password);
    await page.goto(`/competitions/${slug}/manage`);
    const firstPart = page.waitForResponse((response) => /\/parts\/1$/.test(response.url()) && response.ok(), { timeout: 120_000 });
    await page.getByLabel("Attach a file").setInputFiles({ name: "train.bin", mimeType: "application/octet-stream", buffer: file });

    const bar = page.getByRole("progressbar", { name: "Uploading train.bin" });
    await bar.waitFor();
    // Part 1 (8 MiB of 16.01 MiB) arrives: 49 %; then pause while part 2 is on its way.
    await firstPart;
    await page.getByRole("button", { name: "Pause" }).click();
    const paused = page.getByText(/train\.bin: \d+% of .* \(paused\)/);
    await paused.waitFor();
    expect(await paused.textContent()).toBe("train.bin: 49% of 16.0 MiB (paused)");
    expect(await bar.getAttribute("value")).toBe("49");
    await look(page, "manage-upload-paused");
    await page.setViewportSize({ width: 390, height: 844 });
    await look(page, "manage-upload-paused-narrow");
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole("button", { name: "Resume" }).click();
    const done = page.getByRole("status").filter({ hasText: "train.bin is attached" });
    await done.waitFor({ timeout: 60_000 });
    expect((await done.textContent())?.replace(/\s+/g, " ")).toBe(`train.bin is attached (16.0 MiB). SHA-256: ${createHash("sha256").update(file).digest("hex")}`);
    expect(held).toBeGreaterThanOrEqual(4); // parts 1, 2 (paused), 2 again and 3
    await look(page, "manage-upload-done");
    const { attachments } = await (await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments`)).json();
    expect(attachments).toEqual([expect.objectContaining({ filename: "train.bin", size: file.length })]);
    await page.close();
  });
});
