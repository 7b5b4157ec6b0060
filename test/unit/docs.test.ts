import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The documents a newcomer reads: every relative link leads to a file or directory of the
// repository (not to one .gitignore keeps out of a clone, nor to a page of the running app), and a
// link to a heading finds that heading; the README stays a front door; and nothing points outside
// the repository to documents a clone does not have.

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCUMENTS = [
  "README.md",
  "CONTRIBUTING.md",
  "SECURITY.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks and inline code, where Markdown reads links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").replace(/`[^`]*`/g, "``");
}

/** Every inline link and image target, with the line it starts on. */
function links(markdown: string): { target: string; line: number }[] {
  const text = prose(markdown);
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => ({ target: m[1], line: text.slice(0, m.index).split("\n").length }));
}

/** A heading's anchor as GitHub makes it: its text lower-cased, without punctuation or symbols, spaces as hyphens; repeats get -1, -2… */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[`*]/g, "");
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** What .gitignore keeps out of a clone (its simple patterns: a name, a directory, or *.ext). */
const IGNORED = readFileSync(path.join(ROOT, ".gitignore"), "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"));
function ignored(relative: string): boolean {
  const parts = relative.split(path.sep);
  return IGNORED.some((pattern) => {
    if (pattern.startsWith("*.")) return relative.endsWith(pattern.slice(1));
    const prefix = pattern.replace(/\/$/, "").split("/");
    return parts.some((_, i) => prefix.every((p, j) => parts[i + j] === p));
  });
}

/** Why a link does not resolve, or null when it does. */
function problem(document: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:: outside the repository by intent
  if (target.startsWith("/")) return "a path of the running app or the machine, not a file of the repository: name the page in code, or link the file relatively";
  const [file, anchor] = target.split("#", 2) as [string, string | undefined];
  const resolved = file === "" ? path.join(ROOT, document) : path.resolve(path.dirname(path.join(ROOT, document)), decodeURIComponent(file));
  const relative = path.relative(ROOT, resolved);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return "outside the repository";
  if (!existsSync(resolved)) return "no such file";
  if (ignored(relative)) return "a file .gitignore keeps out of the repository";
  if (anchor === undefined) return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith(".md")) return "an anchor into something that is not a Markdown file";
  return headingAnchors(readFileSync(resolved, "utf8")).has(decodeURIComponent(anchor)) ? null : `no heading "${anchor}" in ${relative}`;
}

describe("the documentation", () => {
  it.each(DOCUMENTS)("%s: every relative link resolves to a file of the repository, and an anchor to its heading", (document) => {
    const markdown = readFileSync(path.join(ROOT, document), "utf8");
    const broken = links(markdown)
      .map(({ target, line }) => ({ target, line, problem: problem(document, target) }))
      .filter((l) => l.problem !== null)
      .map((l) => `${document}:${l.line} ${l.target}: ${l.problem}`);
    expect(broken).toEqual([]);
  });

  it("finds the links it checks, and catches a broken one", () => {
    expect(links("[a](docs/api.md#conventions) `[b](nowhere.md)` ![c](x.svg)\n```\n[d](e.md)\n```").map((l) => l.target)).toEqual(["docs/api.md#conventions", "x.svg"]);
    expect(problem("README.md", "docs/api.md#conventions")).toBeNull();
    expect(problem("README.md", "docs/api.md#no-such-heading")).toMatch(/no heading/);
    expect(problem("README.md", "docs/nowhere.md")).toBe("no such file");
    expect(problem("docs/api.md", "/api-reference")).toMatch(/running app/);
    expect(problem("docs/api.md", "../../outside.md")).toBe("outside the repository");
    expect(problem("README.md", "node_modules/zod/package.json")).toMatch(/gitignore/);
  });

  it("makes anchors as GitHub does", () => {
    const anchors = headingAnchors("## 2.7 The second proof: description length (Dwork et al. 2015, Theorem 6)\n## The `quiltboard` command\n## Notes\n## Notes\n");
    expect([...anchors]).toEqual(["27-the-second-proof-description-length-dwork-et-al-2015-theorem-6", "the-quiltboard-command", "notes", "notes-1"]);
  });

  it("keeps the README a front door: at most 250 lines", () => {
    const lines = readFileSync(path.join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it("points to nothing outside the repository that a clone lacks", () => {
    const skip = new Set([".git", "node_modules", ".next", "dist", ".data", "test-results", "generated", "out"]);
    const offenders: string[] = [];
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (skip.has(entry.name)) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) visit(full);
        else if (/\.(md|ts|tsx|mjs|js|json|yml|yaml|py|sql|prisma|css|txt)$|^Dockerfile$|^run$/.test(entry.name) && entry.name !== "package-lock.json") {
          const text = readFileSync(full, "utf8");
          // "../" + "shared" is spelled in two pieces so that this file does not match itself.
          if (text.includes("../" + "shared") || /\b(SPEC|STYLE)\.md\b/.test(text)) offenders.push(path.relative(ROOT, full));
        }
      }
    };
    visit(ROOT);
    expect(offenders).toEqual([]);
  });
});
