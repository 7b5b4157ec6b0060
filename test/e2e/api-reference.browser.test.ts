import type { BrowserContext } from "playwright-core";
import { describe, expect, it } from "vitest";
import { look } from "./a11y";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, publishedCompetition } from "./helpers";

describe("the API's OpenAPI document (docs/api.md)", () => {
  it("is served at /api/v1/openapi.json as OpenAPI 3.1 with every endpoint", async () => {
    const answer = await api("/api/v1/openapi.json");
    expect(answer.headers.get("content-type")).toContain("application/json");
    const document = await answer.json();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths["/api/v1/competitions/{slug}/leaderboard"])).toEqual(["get"]);
    expect(document.paths["/api/v1/competitions/{slug}/submissions"].post.responses["201"].content["application/json"].schema.anyOf).toHaveLength(2);
  });
});

describe.skipIf(!CHROMIUM_PATH)("the API reference page in a real browser", () => {
  for (const width of [1280, 390]) {
    it(`is linked from the header and shows every endpoint with Swagger UI served by the app, nothing refused by the CSP, and passes axe-core at ${width} px`, async () => {
      const { slug } = await publishedCompetition();
      const browser: BrowserContext = await launchBrowser({ width, height: width === 390 ? 844 : 900 });
      try {
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
        page.on("pageerror", (e) => problems.push(e.message));
        const outside: string[] = [];
        page.on("request", (r) => r.url().startsWith("http") && new URL(r.url()).origin !== new URL(APP_URL).origin && outside.push(r.url()));
        if (width === 390) await page.goto("/api-reference");
        else {
          await page.goto("/");
          await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API" }).click();
          await page.waitForURL("**/api-reference");
        }
        await page.getByText("/api/v1/competitions/{slug}/leaderboard", { exact: true }).first().waitFor();
        expect(await page.locator(".opblock").count()).toBeGreaterThanOrEqual(60);
        await page.getByText("/api/v1/competitions/{slug}/leaderboard", { exact: true }).first().click();
        await page.getByText("pageSize").first().waitFor();
        // Swagger UI's own colours and its links inside buttons failed axe-core until api-reference.css and deepLinking: false.
        await look(page, `api-reference-${width}`);
        // Trying the endpoint out: its parameters become fields.
        await page.getByRole("button", { name: "Try it out" }).first().click();
        await page.getByRole("button", { name: "Execute" }).first().waitFor();
        await look(page, `api-reference-try-${width}`);
        await page.locator('tr[data-param-name="slug"] input').first().fill(slug);
        await page.getByRole("button", { name: "Execute" }).first().click();
        await page.getByText("Server response").first().waitFor();
        await look(page, `api-reference-answered-${width}`);
        expect(problems).toEqual([]);
        expect(outside).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  }
});
