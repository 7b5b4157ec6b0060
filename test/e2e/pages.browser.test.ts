import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { demoPredictionsCsv, demoSolutionCsv } from "@/prisma/demo-solution";
import { look } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, newApiUser, uniqueEmail, postCsv, publishedCompetition, putCsv } from "./helpers";

// Every kind of page a visitor, a competitor and an organizer meets, and their error states, at
// 1280 and 390 px: axe-core finds no critical or serious violation and nothing is wider than the
// phone (look, ./a11y.ts). Then how the pages load: no layout shift, no prefetching, Back restores.

type Who = { email: string; password: string } | null;

let slug = "";
let draft = "";
let teamId = "";
let competitor: Who = null;
let organizer: Who = null;

async function signIn(context: BrowserContext, page: Page, who: Who) {
  await context.clearCookies();
  if (!who) return;
  await page.goto("/signin");
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("account-link").waitFor();
}

beforeAll(async () => {
  const owner = await newApiUser("sweep-organizer");
  organizer = owner;
  ({ slug } = await publishedCompetition({ organizer: owner.auth, budget: 5 }));
  for (const [i, name] of ["Aurora", "Borealis with a much longer team name than most"].entries()) {
    const player = await newApiUser("sweep");
    const team = await (await api(`/api/v1/competitions/${slug}/teams`, { headers: player.auth, body: { name, acceptRules: true } })).json();
    for (let k = 0; k < 2; k++) await postCsv(APP_URL, slug, demoPredictionsCsv({ skill: 0.6 + 0.05 * i + 0.02 * k, seed: `sweep-${i}-${k}` }), player.auth);
    if (i === 0) [competitor, teamId] = [player, team.id];
  }
  const form = new FormData();
  form.set("file", new Blob(["id,prediction\nhh000-t00,none\n"], { type: "text/csv" }), "sample_submission.csv");
  await fetch(`${APP_URL}/api/v1/competitions/${slug}/attachments`, { method: "POST", headers: owner.auth, body: form });
  // A draft with everything in place: its checklist is done and Publish is enabled.
  draft = `sweep-draft-${slug.slice(2)}`;
  await api("/api/v1/competitions", { headers: owner.auth, body: { slug: draft, title: "Sweep draft", metric: { name: "accuracy" }, endsAt: "2030-01-01T00:00:00Z" } });
  await putCsv(`/api/v1/competitions/${draft}/solution`, demoSolutionCsv(), owner.auth);
  await api(`/api/v1/competitions/${draft}/mechanism`, { method: "PUT", headers: owner.auth, body: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 5 } });
});

describe.skipIf(!CHROMIUM_PATH)("every page, for axe-core, at 1280 and 390 px", () => {
  for (const width of [1280, 390]) {
    it(`has no critical or serious violation and fits the screen at ${width} px`, { timeout: 240_000 }, async () => {
      const context = await launchBrowser({ width, height: width === 390 ? 844 : 800 });
      const page = await context.newPage();
      const base = `/competitions/${slug}`;
      // Who visits which pages: [who, signed in as, [path, name]…].
      const tabs = (...names: string[]) => names.map((tab) => [tab ? `${base}/${tab}` : base, tab || "overview"]);
      const journeys: [string, Who, string[][]][] = [
        [
          "visitor",
          null,
          [
            ["/", "home"],
            ["/competitions", "competitions"],
            ...tabs("", "data", "leaderboard", "rules", "team", "submissions", `teams/${teamId}`),
            ["/signin", "signin"],
            ["/signup", "signup"],
            ["/forgot-password", "forgot-password"],
            ["/verify-email", "verify-email-no-token"],
            ["/competitions/no-such-competition", "not-found"],
          ],
        ],
        ["competitor", competitor, [...tabs("", "data", "leaderboard", "team", "submissions", `teams/${teamId}`), ["/account", "account"]]],
        [
          "organizer",
          organizer,
          [
            [`${base}/manage`, "manage-live"],
            [`${base}/manage/operations`, "manage-operations-live"],
            [`/competitions/${draft}/manage`, "manage-draft"],
            [`/competitions/${draft}/manage/operations`, "manage-operations-draft"],
            [`/competitions/${draft}`, "draft-overview"],
            ["/competitions/new", "new-competition"],
          ],
        ],
      ];
      try {
        for (const [who, as, pages] of journeys) {
          await signIn(context, page, as);
          for (const [path, name] of pages) {
            await page.goto(path);
            await look(page, `${who}-${name.replace("/", "-")}-${width}`);
          }
        }
        // Error states and dialogs.
        await signIn(context, page, null);
        await page.goto("/signin");
        await page.getByLabel("Email").fill(uniqueEmail("nobody"));
        await page.getByLabel("Password").fill("not a password");
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByRole("alert").filter({ hasText: "Wrong email or password." }).waitFor();
        await look(page, `visitor-signin-refused-${width}`);

        await signIn(context, page, competitor);
        await page.goto(`${base}/submissions`);
        await page.getByLabel(/Choose a predictions CSV/).setInputFiles({ name: "bad.csv", mimeType: "text/csv", buffer: Buffer.from("id,prediction\nnobody,spike\n") });
        await page.getByRole("button", { name: "Submit bad.csv" }).click();
        await page.getByRole("alert").filter({ hasText: "Line 2" }).waitFor();
        await look(page, `competitor-submission-rejected-${width}`);

        await signIn(context, page, organizer);
        await page.goto(`/competitions/${draft}/manage`);
        await page.getByRole("button", { name: "Publish" }).click();
        await page.getByRole("dialog", { name: "Publish the competition?" }).waitFor();
        await look(page, `organizer-publish-dialog-${width}`);
        await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
        await page.goto("/competitions/new");
        await page.getByRole("button", { name: "Create draft" }).click();
        await page.locator('input[name="title"][aria-invalid="true"]').waitFor();
        await look(page, `organizer-new-competition-refused-${width}`);
      } finally {
        await context.close();
      }
    });
  }
});

describe.skipIf(!CHROMIUM_PATH)("how the pages load", () => {
  it("does not shift the competition's page as it loads on a phone (the countdown comes from the server)", async () => {
    const context = await launchBrowser({ width: 390, height: 844 });
    try {
      const page = await context.newPage();
      for (const path of [`/competitions/${slug}`, `/competitions/${slug}/leaderboard`, `/competitions/${slug}/teams/${teamId}`]) {
        await page.goto(path);
        // The countdown is in the page as the server sent it, before any script ran.
        if (path === `/competitions/${slug}`) {
          const html = await (await fetch(`${APP_URL}${path}`)).text();
          expect(html).toMatch(/\(<time datetime="[^"]+">\d+ days? \d+ h left<\/time>\)/i);
        }
        await page.waitForTimeout(1500);
        // Every layout shift since the page began (buffered), those right after input excepted, as Lighthouse counts them.
        const shift = await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              let sum = 0;
              new PerformanceObserver((list) => {
                for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) sum += entry.value;
              }).observe({ type: "layout-shift", buffered: true });
              setTimeout(() => resolve(sum), 500);
            }),
        );
        console.log(`cumulative layout shift of ${path} at 390 px: ${shift.toFixed(4)}`);
        expect(shift).toBeLessThan(0.1);
      }
    } finally {
      await context.close();
    }
  });

  it("fetches a link when it is followed, not when it is on screen, and shows a favicon", async () => {
    const context = await launchBrowser();
    try {
      const page = await context.newPage();
      const fetched: string[] = [];
      page.on("request", (request) => fetched.push(new URL(request.url()).pathname + new URL(request.url()).search));
      await page.goto(`/competitions/${slug}`);
      await page.waitForTimeout(2000);
      expect(fetched.filter((url) => url.includes("_rsc="))).toEqual([]);
      expect(fetched.filter((url) => url.startsWith("/favicon") || url.startsWith("/icon"))).not.toEqual([]);
      const icon = await fetch(`${APP_URL}/favicon.ico`);
      expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/x-icon"]);
      // Following a tab fetches its page once.
      fetched.length = 0;
      await page.getByRole("navigation", { name: "Competition" }).getByRole("link", { name: "Rules" }).click();
      await page.waitForURL(`**/competitions/${slug}/rules`);
      expect(fetched.filter((url) => url.startsWith(`/competitions/${slug}/rules`))).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  it("restores a page from the back/forward cache on Back, the live board too", { timeout: 60_000 }, async () => {
    const context = await launchBrowser({ width: 1280, height: 800 }, { backForwardCache: true });
    try {
      const page = await context.newPage();
      for (const [path, wait] of [
        [`/competitions/${slug}`, 500],
        [`/competitions/${slug}/leaderboard`, 11_000], // after the board's first refresh
      ] as const) {
        await page.goto(path);
        await page.waitForTimeout(wait);
        await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
        await page.goto("/competitions");
        await page.goBack({ waitUntil: "commit" });
        await expect.poll(() => page.evaluate(() => (window as unknown as { kept?: boolean }).kept ?? false), { timeout: 5000 }).toBe(true);
      }
    } finally {
      await context.close();
    }
  });
});
