// What the browser tests check on every page they look at: axe-core's rules (WCAG 2.2 A and AA
// and best practices), injected into the page through playwright-core, failing on any critical or
// serious violation; at phone width, that nothing makes the page wider than the screen. And a
// probe of the keyboard's focus: which element has it, and whether it can be seen.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { SCREENSHOTS } from "./helpers";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Violation = { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary: string }[] };

/** axe-core's critical and serious violations on the page as it is now (after its scripts ran). */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // evaluate() runs through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  });
  return violations.filter((v) => v.impact === "critical" || v.impact === "serious");
}

/**
 * A screenshot of the page (test-results/screenshots/NAME.png), then axe-core on it: no critical or
 * serious violation; and on a screen 390 px wide or less, no sideways scrolling of the whole page.
 */
export async function look(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("load");
  // After a client-side navigation the new page's title arrives with its metadata.
  await expect.poll(() => page.title(), { message: `${name} has no title` }).not.toBe("");
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const violations = await axeViolations(page);
  const described = violations.map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.map((n) => `${n.target.join(" ")} — ${n.failureSummary}`).join("; ")}`);
  expect(described, `axe on ${name} (${page.url()})`).toEqual([]);
  const width = page.viewportSize()?.width ?? 1280;
  if (width <= 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} is wider than the screen`).toBeLessThanOrEqual(width);
}

export type Focus = { tag: string; name: string; testId: string | null; visible: boolean; indicator: string };

/**
 * The element that has the keyboard's focus and whether its focus indicator shows: an outline of
 * non-zero width, or a box shadow other than the one it has unfocused. A visually hidden control
 * (the file chooser inside its drop zone) shows its focus on the label around it.
 */
export function focused(page: Page): Promise<Focus> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body) return { tag: "body", name: "", testId: null, visible: false, indicator: "none" };
    const box = active.getBoundingClientRect();
    const shown = box.width <= 1 && box.height <= 1 ? (active.closest("label") ?? active) : active;
    const style = getComputedStyle(shown);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 ? `outline ${style.outlineWidth} ${style.outlineStyle}` : null;
    // The same element unfocused: a shallow copy beside it has its classes but not the focus.
    const copy = shown.cloneNode(false) as HTMLElement;
    copy.removeAttribute("id");
    copy.removeAttribute("name");
    shown.parentNode!.insertBefore(copy, shown);
    const resting = getComputedStyle(copy).boxShadow;
    copy.remove();
    const ring = style.boxShadow !== resting ? `box-shadow ${style.boxShadow}` : null;
    const name = (active.getAttribute("aria-label") ?? (active as HTMLInputElement).labels?.[0]?.textContent ?? active.textContent ?? "").trim().replace(/\s+/g, " ");
    return { tag: active.tagName.toLowerCase(), name, testId: active.getAttribute("data-testid"), visible: Boolean(outline ?? ring), indicator: outline ?? ring ?? "none" };
  });
}

/**
 * Presses Tab (Shift+Tab with `back`) until the focus is on an element matching `wanted`, checking
 * at every step that the focus can be seen.
 */
export async function tabTo(page: Page, wanted: (focus: Focus) => boolean, options: { back?: boolean; steps?: number } = {}): Promise<Focus> {
  const steps = options.steps ?? 40;
  for (let i = 0; i < steps; i++) {
    await page.keyboard.press(options.back ? "Shift+Tab" : "Tab");
    const focus = await focused(page);
    expect(focus.visible, `the focus on ${focus.tag} "${focus.name}" cannot be seen (${focus.indicator})`).toBe(true);
    if (wanted(focus)) return focus;
  }
  throw new Error(`no element matched within ${steps} presses of Tab`);
}
