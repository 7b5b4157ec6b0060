import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUTTON, NOTE, SURFACES } from "@/app/_components/tones";

// The design's colours checked for contrast in one place (WCAG 2.2 SC 1.4.3, AA: 4.5:1 for text).
// Every class string of the app is read: a text colour is checked against the backgrounds set in
// the same string (hover states too), or against the surfaces of app/_components/tones.ts when
// the string sets none. The browser tests run axe-core on the rendered pages as well.

/** Tailwind's palette, from the theme the build uses: name → CSS colour (oklch or hex). */
const PALETTE = new Map(
  [...readFileSync(path.resolve("node_modules/tailwindcss/theme.css"), "utf8").matchAll(/--color-([a-z]+(?:-\d+)?):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]),
);

/** A CSS colour as linear sRGB in [0, 1] (OKLCH by Björn Ottosson's OKLab matrices, clipped to the gamut). */
function linearRgb(css: string): [number, number, number] {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(css);
  if (hex) {
    const digits = hex[1].length === 3 ? [...hex[1]].map((d) => d + d) : hex[1].match(/../g)!;
    return digits.map((d) => {
      const c = parseInt(d, 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
  }
  const oklch = /^oklch\(([\d.]+)%\s+([\d.]+)\s+([\d.]+)\)$/.exec(css);
  if (!oklch) throw new Error(`cannot read the colour ${css}`);
  const [L, C, h] = [Number(oklch[1]) / 100, Number(oklch[2]), (Number(oklch[3]) * Math.PI) / 180];
  const [a, b] = [C * Math.cos(h), C * Math.sin(h)];
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const clip = (x: number) => Math.min(1, Math.max(0, x));
  return [
    clip(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    clip(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    clip(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

const luminance = (name: string) => {
  const css = PALETTE.get(name);
  if (!css) throw new Error(`no colour ${name} in Tailwind's theme`);
  const [r, g, b] = linearRgb(css);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** WCAG's contrast ratio of two palette colours. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? sources(full) : /\.tsx?$/.test(entry) ? [full] : [];
  });
}

/** Every string literal (and template chunk) of a source file that looks like a list of classes. */
function classStrings(source: string): string[] {
  return [...source.matchAll(/"([^"\n]*)"|`([^`]*)`/g)].map((m) => m[1] ?? m[2]).filter((s) => /\b(?:text|bg)-(?:white|[a-z]+-\d{2,3})\b/.test(s));
}

const COLOUR = "(white|[a-z]+-\\d{2,3})(?:/(\\d+))?";

/** The text colours and backgrounds (gradient stops too) one class string sets, ignoring faded disabled states. */
function colours(classes: string): { text: string[]; backgrounds: string[] } {
  // Not the page's text: a faded disabled state, a file chooser's button (white on indigo-600, as the
  // primary button), placeholders, a dialog's backdrop.
  const other = /(?:^|:)(?:disabled|file|placeholder|backdrop):/;
  const tokens = classes.split(/\s+/).filter((t) => !other.test(t));
  const pick = (kind: string) =>
    tokens.flatMap((t) => {
      const m = new RegExp(`^(?:[a-z-]+:)*${kind}-${COLOUR}$`).exec(t);
      return m && PALETTE.has(m[1]) ? [m[1]] : [];
    });
  return { text: pick("text"), backgrounds: [...pick("bg"), ...pick("from"), ...pick("via"), ...pick("to")] };
}

describe("the design's colours", () => {
  it("reads Tailwind's palette and computes WCAG contrast as the reference tools do", () => {
    expect(contrast("white", "black")).toBeCloseTo(21, 5);
    // The audit's figure (issue 29): white on emerald-600 (#009966) is 3.65:1.
    expect(contrast("white", "emerald-600")).toBeCloseTo(3.65, 1);
  });

  it("gives every button and note at least 4.5:1", () => {
    for (const [name, classes] of Object.entries({ ...BUTTON, ...NOTE })) {
      const { text, backgrounds } = colours(classes);
      expect(text, name).toHaveLength(1);
      for (const bg of backgrounds) expect(contrast(text[0], bg), `${name}: ${text[0]} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("gives every text colour of the app at least 4.5:1 on its background", () => {
    const failures: string[] = [];
    let checked = 0;
    for (const file of sources(path.resolve("app"))) {
      for (const classes of classStrings(readFileSync(file, "utf8"))) {
        const { text, backgrounds } = colours(classes);
        for (const t of text) {
          for (const bg of backgrounds.length ? backgrounds : SURFACES) {
            checked++;
            const ratio = contrast(t, bg);
            if (ratio < 4.5) failures.push(`${path.relative(process.cwd(), file)}: text-${t} on ${bg} is ${ratio.toFixed(2)}:1 in "${classes}"`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });
});
