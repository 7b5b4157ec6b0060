import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

describe("ensurePinnedNode", () => {
  it("reuses the runtime kept in .runtime/ without fetching or saying anything", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "quiltboard-runtime-"));
    try {
      const bin = path.join(root, RUNTIME_DIR, `node-v${PINNED.version}-${process.platform}-${process.arch}`, "bin");
      mkdirSync(bin, { recursive: true });
      writeFileSync(path.join(bin, "node"), "");
      const said: string[] = [];
      const node = await ensurePinnedNode({ root, why: "test", log: (line) => said.push(line) });
      expect(node).toBe(path.join(bin, "node"));
      expect(said).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
