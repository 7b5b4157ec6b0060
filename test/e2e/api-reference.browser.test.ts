import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, APP_URL, CHROMIUM_PATH, launchBrowser, SCREENSHOTS } from "./helpers";

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
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser({ width: 1280, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("is linked from the header and shows every endpoint with Swagger UI served by the app, with nothing refused by the CSP", async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(e.message));
    const outside: string[] = [];
    page.on("request", (r) => r.url().startsWith("http") && new URL(r.url()).origin !== new URL(APP_URL).origin && outside.push(r.url()));
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API" }).click();
    await page.waitForURL("**/api-reference");
    await page.getByText("/api/v1/competitions/{slug}/leaderboard", { exact: true }).first().waitFor();
    expect(await page.locator(".opblock").count()).toBeGreaterThanOrEqual(60);
    await page.getByText("/api/v1/competitions/{slug}/leaderboard", { exact: true }).first().click();
    await page.getByText("pageSize").first().waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, "api-reference.png") });
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
