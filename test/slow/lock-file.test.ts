import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INSTALL_ARGS } from "../../scripts/runtime.mjs";

// A fresh clone's first `npm start` runs `npm install`: package-lock.json must be what that install
// writes, or a new user's checkout is dirty before they change anything (issue 40). npm resolves
// the lock against package.json here exactly as in a fresh clone, without node_modules (on the Node
// and npm that npm test runs on, which scripts/bootstrap.mjs put first on PATH; `--package-lock-only`
// reads the registry's metadata, from npm's cache when it has it).

type Lock = { packages: Record<string, unknown> };
const committed = readFileSync("package-lock.json", "utf8");

/** The lock `npm install` writes from package.json and `lock`, in a directory of their own. */
function reinstalled(lock: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "quiltboard-lock-"));
  try {
    writeFileSync(path.join(dir, "package.json"), readFileSync("package.json"));
    writeFileSync(path.join(dir, "package-lock.json"), lock);
    const npm = spawnSync("npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: dir, encoding: "utf8" });
    if (npm.status !== 0) throw new Error(`npm install failed: ${npm.stderr}`);
    return readFileSync(path.join(dir, "package-lock.json"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The entries of `after` that differ from `before`'s, each with what happened to it. */
function drift(before: string, after: string): string[] {
  const [a, b] = [JSON.parse(before) as Lock, JSON.parse(after) as Lock];
  const keys = [...new Set([...Object.keys(a.packages), ...Object.keys(b.packages)])].sort();
  return keys.flatMap((key) => {
    if (!(key in a.packages)) return [`added ${key || "(root)"}`];
    if (!(key in b.packages)) return [`removed ${key || "(root)"}`];
    return JSON.stringify(a.packages[key]) === JSON.stringify(b.packages[key]) ? [] : [`rewrote ${key || "(root)"}`];
  });
}

describe("package-lock.json", () => {
  it("is what a fresh npm install writes, byte for byte", () => {
    const after = reinstalled(committed);
    expect(drift(committed, after)).toEqual([]);
    expect(after).toBe(committed); // the order and the formatting too
  });

  it("is checked for real: a lock without the wasm package's bundled entries (as commit 1ca2d4a made it) is rewritten", () => {
    const lock = JSON.parse(committed) as Lock;
    const prefix = "node_modules/@tailwindcss/oxide-wasm32-wasi/node_modules/";
    const bundled = Object.keys(lock.packages).filter((key) => key.startsWith(prefix));
    expect(bundled.length).toBeGreaterThan(0);
    for (const key of bundled) delete lock.packages[key];
    const trimmed = `${JSON.stringify(lock, null, 2)}\n`;
    const changes = drift(trimmed, reinstalled(trimmed));
    // npm 11 rewrites the flags of the same packages at the top level (their copies outside the bundle).
    expect(changes.length).toBeGreaterThan(0);
    const names = bundled.map((key) => key.slice(prefix.length));
    for (const change of changes) expect(names.some((name) => change.endsWith(`node_modules/${name}`))).toBe(true);
  });
});

// Another npm than the one that wrote the lock rewrites it on a plain `npm install` (measured: npm
// 10.9 drops the libc fields, the npm 11.6 of a Node 24 installer drops the bundled wasm entries
// above), so the bootstrap installs with --no-save (scripts/runtime.mjs INSTALL_ARGS): what the lock
// pins, the lock left alone. A lock in an older npm's format stands for theirs here.

const work = mkdtempSync(path.join(tmpdir(), "quiltboard-lockfile-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const INTEGRITY = "sha512-qepMx2JxAa5jjfzxG79yPPq+8BuFToHd1hm7kI+Z4zAq1ftQiP7HcxMhDDItrbtwVeLg/cY2JnKnrcFkmiswNA==";
const RESOLVED = "https://registry.npmjs.org/server-only/-/server-only-0.0.1.tgz";

/** A project of one small dependency whose lock file npm 7 or 8 wrote (lockfileVersion 2, with the old `dependencies` section). */
function olderNpmsProject(name: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "lockfile-check", version: "1.0.0", private: true, dependencies: { "server-only": "0.0.1" } }));
  const entry = { version: "0.0.1", resolved: RESOLVED, integrity: INTEGRITY };
  const lock = {
    name: "lockfile-check",
    version: "1.0.0",
    lockfileVersion: 2,
    requires: true,
    packages: { "": { name: "lockfile-check", version: "1.0.0", dependencies: { "server-only": "0.0.1" } }, "node_modules/server-only": entry },
    dependencies: { "server-only": entry },
  };
  writeFileSync(path.join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
  return dir;
}

const npm = (dir: string, args: string[]) => execFileSync("npm", [...args, "--prefer-offline", "--ignore-scripts"], { cwd: dir, stdio: "pipe", encoding: "utf8" });

describe("the bootstrap's npm install", () => {
  it("installs what the lock file pins and leaves the lock file byte for byte as it was", () => {
    const dir = olderNpmsProject("bootstrap");
    const before = readFileSync(path.join(dir, "package-lock.json"), "utf8");
    npm(dir, INSTALL_ARGS);
    expect(existsSync(path.join(dir, "node_modules/server-only/package.json"))).toBe(true);
    expect(existsSync(path.join(dir, "node_modules/.package-lock.json"))).toBe(true); // what bootstrap.mjs's staleness check reads
    expect(readFileSync(path.join(dir, "package-lock.json"), "utf8")).toBe(before);
  });

  it("where a plain npm install rewrites it (the check detects a rewrite)", () => {
    const dir = olderNpmsProject("plain");
    const before = readFileSync(path.join(dir, "package-lock.json"), "utf8");
    npm(dir, ["install", "--no-audit", "--no-fund"]);
    expect(readFileSync(path.join(dir, "package-lock.json"), "utf8")).not.toBe(before);
  });
});
