import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { chooseNode, ensurePinnedNode, PINNED, RUNTIME_DIR, satisfies } from "../../scripts/runtime.mjs";

// scripts/bootstrap.mjs runs npm start, npm test and the other scripts on the Node this decides.
const packageJson = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string }; devDependencies: Record<string, string> };
const engines = packageJson.engines.node;
const pinnedMajor = Number(PINNED.version.split(".")[0]);

describe("satisfies (package.json's engines.node, one lower bound)", () => {
  it("compares major, minor and patch in that order", () => {
    expect(satisfies("v20.20.2", ">=22.12.0")).toBe(false);
    expect(satisfies("v22.11.9", ">=22.12.0")).toBe(false);
    expect(satisfies("v22.12.0", ">=22.12.0")).toBe(true);
    expect(satisfies("v22.12.1", ">=22.12.0")).toBe(true);
    expect(satisfies("v22.15.0", ">= 22.12")).toBe(true);
    expect(satisfies("v23.0.0", ">=22.12.0")).toBe(true);
    expect(satisfies("v24.21.0", ">=24")).toBe(true);
    expect(satisfies("v9.99.99", ">=10.0.0")).toBe(false); // numbers, not strings
  });

  it("refuses a range it cannot read rather than misreading it", () => {
    expect(() => satisfies("v24.0.0", "^22.12.0 || >=24")).toThrow(/reads only a lower bound/);
    expect(() => satisfies("v24.0.0", "22")).toThrow(/reads only a lower bound/);
    expect(() => satisfies("24.x", ">=22")).toThrow(/not a Node version/);
  });
});

describe("chooseNode", () => {
  it("takes the pinned Node where the machine's is older than engines.node, as this machine's Node 20", () => {
    expect(chooseNode({ version: "v20.20.2", engines, ci: false })).toBe("pinned");
    expect(chooseNode({ version: "v18.20.8", engines, ci: false })).toBe("pinned");
  });

  it("keeps the machine's Node when it is recent enough: 22 LTS, 24 LTS or newer", () => {
    expect(chooseNode({ version: "v22.22.0", engines, ci: false })).toBe("own");
    expect(chooseNode({ version: "v24.0.0", engines, ci: false })).toBe("own");
    expect(chooseNode({ version: "v26.1.0", engines, ci: false })).toBe("own");
  });

  it("on CI, requires the pinned major, which the Docker image runs", () => {
    expect(chooseNode({ version: "v22.22.0", engines, ci: true })).toBe("pinned");
    expect(chooseNode({ version: "v26.1.0", engines, ci: true })).toBe("pinned");
    expect(chooseNode({ version: "v24.3.0", engines, ci: true })).toBe("own");
    expect(chooseNode({ version: "v20.20.2", engines, ci: true })).toBe("pinned");
  });

  it("never picks a pinned Node that the project itself refuses", () => {
    expect(satisfies(`v${PINNED.version}`, engines)).toBe(true);
  });
});

describe("the pinned Node everywhere", () => {
  it("is the Node of the Docker image's two stages and of @types/node", () => {
    const bases = [...readFileSync("Dockerfile", "utf8").matchAll(/^FROM node:(\d+)\S* AS (\w+)$/gm)].map((m) => [m[2], Number(m[1])]);
    expect(bases).toEqual([
      ["build", pinnedMajor],
      ["runtime", pinnedMajor],
    ]);
    expect(/^\^(\d+)\./.exec(packageJson.devDependencies["@types/node"])?.[1]).toBe(String(pinnedMajor));
  });

  it("has a pinned SHA-512 (npm's integrity form) for each platform it is fetched for", () => {
    expect(Object.keys(PINNED.integrity).sort()).toEqual(["linux-arm64", "linux-x64"]);
    for (const integrity of Object.values(PINNED.integrity)) expect(Buffer.from(integrity.replace(/^sha512-/, ""), "base64")).toHaveLength(64);
  });
});

/**
 * A root whose PATH starts with a stand-in for `npm pack`: it copies `tarball` where it is asked to
 * and prints what npm prints, so the fetch runs without the network. The tarball holds a
 * `package/bin/node` that answers `answer` to --version. Returns the pinned entry that matches it.
 */
function fakeRegistry(answer: string): { root: string; pinned: typeof PINNED; restore: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), "quiltboard-runtime-"));
  const pkg = path.join(root, "build", "package");
  mkdirSync(path.join(pkg, "bin"), { recursive: true });
  writeFileSync(path.join(pkg, "bin", "node"), `#!/bin/sh\necho ${answer}\n`, { mode: 0o755 });
  writeFileSync(path.join(pkg, "LICENSE"), "MIT\n");
  const tarball = path.join(root, "build", "node.tgz");
  execFileSync("tar", ["-czf", tarball, "-C", path.join(root, "build"), "package"]);
  const bin = path.join(root, "fake-bin");
  mkdirSync(bin);
  // npm pack <spec> --pack-destination <dir> --json
  writeFileSync(path.join(bin, "npm"), `#!/bin/sh\ncp "${tarball}" "$4/node.tgz"\necho '[{"filename":"node.tgz"}]'\n`, { mode: 0o755 });
  const integrity = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  const PATH = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${PATH}`;
  return {
    root,
    pinned: { version: PINNED.version, integrity: { [`${process.platform}-${process.arch}`]: integrity } },
    restore: () => {
      process.env.PATH = PATH;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

describe("ensurePinnedNode", () => {
  const runtime = (root: string) => path.join(root, RUNTIME_DIR, `node-v${PINNED.version}-${process.platform}-${process.arch}`);
  const leftovers = (root: string) => readdirSync(path.join(root, RUNTIME_DIR));

  it("fetches, checks and unpacks the pinned Node, saying what it does, then reuses it", async () => {
    const { root, pinned, restore } = fakeRegistry(`v${PINNED.version}`);
    try {
      const said: string[] = [];
      const node = await ensurePinnedNode({ root, why: "Node v20.20.2 is older", log: (line) => said.push(line), pinned });
      expect(node).toBe(path.join(runtime(root), "bin", "node"));
      expect(execFileSync(node, ["--version"], { encoding: "utf8" }).trim()).toBe(`v${PINNED.version}`);
      expect(said[0]).toMatch(new RegExp(`^Node v20\\.20\\.2 is older: fetching Node ${PINNED.version} from the npm registry \\(node-${process.platform}-${process.arch}@`));
      expect(said.at(-1)).toMatch(/is ready \(SHA-512 as pinned\)/);
      expect(leftovers(root)).toEqual([path.basename(runtime(root))]); // the download's directory is gone
      const again: string[] = [];
      expect(await ensurePinnedNode({ root, why: "again", log: (line) => again.push(line), pinned })).toBe(node);
      expect(again).toEqual([]);
    } finally {
      restore();
    }
  });

  it("refuses a tarball whose SHA-512 is not the pinned one, and keeps nothing of it", async () => {
    const { root, pinned, restore } = fakeRegistry(`v${PINNED.version}`);
    try {
      const other = { ...pinned, integrity: { [`${process.platform}-${process.arch}`]: `sha512-${Buffer.alloc(64).toString("base64")}` } };
      await expect(ensurePinnedNode({ root, why: "test", log: () => {}, pinned: other })).rejects.toThrow(
        /has SHA-512 sha512-\S+, not the pinned sha512-A{10}\S*: it was not used/,
      );
      expect(leftovers(root)).toEqual([]);
    } finally {
      restore();
    }
  });

  it("refuses a Node that does not answer with the pinned version, and keeps nothing of it", async () => {
    const { root, pinned, restore } = fakeRegistry("v20.0.0");
    try {
      await expect(ensurePinnedNode({ root, why: "test", log: () => {}, pinned })).rejects.toThrow(/does not run here \(it answered "v20\.0\.0\\n"\)/);
      expect(leftovers(root)).toEqual([]);
    } finally {
      restore();
    }
  });

  it("tells the user to install Node 24 on a platform it has no pinned tarball for", async () => {
    await expect(ensurePinnedNode({ root: tmpdir(), why: "Node v20.20.2 is older", log: () => {}, pinned: { version: PINNED.version, integrity: {} } })).rejects.toThrow(
      `Node v20.20.2 is older, and the npm registry has no Node ${PINNED.version} for ${process.platform}-${process.arch} that this project knows: install Node ${PINNED.version}`,
    );
  });
});
