import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const APP_URL = process.env.APP_URL ?? "http://localhost:3000";
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH;
export const SCREENSHOTS = path.resolve("test-results/screenshots");

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomBytes(6).toString("hex")}@example.com`;
}

/** fetch against the app under test, with a JSON body when given one. */
export function api(pathname: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${APP_URL}${pathname}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

export function basic(email: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}` };
}

/** Debian's Chromium with the flags this machine needs (no network beyond loopback). */
export async function launchBrowser(viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launchPersistentContext(mkdtempSync(path.join(tmpdir(), "quiltboard-chromium-")), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport,
    baseURL: APP_URL,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
