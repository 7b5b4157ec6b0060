// The `quiltboard` command as a package of one file: clients/cli/*.ts bundled by esbuild with
// everything it imports (yaml, zod, the validation it shares with the app) into
// dist/cli/quiltboard.mjs beside a package.json with no dependencies, so Node alone runs it. `npm
// pack` makes it a tarball the app serves at /quiltboard-cli.tgz: `npm install -g URL` or
// `npx --package URL quiltboard …` installs it on a competitor's machine.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";

const ROOT = process.cwd();
export const CLI_DIR = path.join(ROOT, "dist", "cli");
export const CLI_BIN = path.join(CLI_DIR, "quiltboard.mjs");
/** The tarball's name where the app serves it (its public directory). */
export const CLI_TARBALL = "quiltboard-cli.tgz";

/** Bundles the command into dist/cli (quiltboard.mjs and its package.json); true when the bundle changed. */
export function buildCli(): boolean {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  const [bundle] = buildSync({
    entryPoints: [path.join(ROOT, "clients", "cli", "entry.ts")],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: CLI_BIN,
    define: { QUILTBOARD_VERSION: JSON.stringify(version) },
    banner: { js: '#!/usr/bin/env node\nimport { createRequire as quiltboardRequire } from "node:module"; const require = quiltboardRequire(import.meta.url);' },
    minify: true,
    legalComments: "eof",
    logLevel: "warning",
  }).outputFiles;
  const manifest = `${JSON.stringify(
    {
      name: "quiltboard-cli",
      version,
      description: "Quiltboard from the terminal: submit predictions, read the leaderboard, download the data, push a competition bundle",
      type: "module",
      bin: { quiltboard: "quiltboard.mjs" },
      files: ["quiltboard.mjs"],
      engines: { node: ">=20.19" },
    },
    null,
    2,
  )}\n`;
  const same = existsSync(CLI_BIN) && readFileSync(CLI_BIN).equals(Buffer.from(bundle.contents)) && readFileSync(path.join(CLI_DIR, "package.json"), "utf8") === manifest;
  if (same) return false;
  mkdirSync(CLI_DIR, { recursive: true });
  writeFileSync(CLI_BIN, bundle.contents);
  chmodSync(CLI_BIN, 0o755);
  writeFileSync(path.join(CLI_DIR, "package.json"), manifest);
  return true;
}

/** Builds the command and packs it (npm pack) into `directory` as quiltboard-cli.tgz, unless it is there already and current. */
export function packCli(directory: string): string {
  const target = path.join(directory, CLI_TARBALL);
  if (!buildCli() && existsSync(target)) return target;
  mkdirSync(directory, { recursive: true });
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const packed = spawnSync(npm, ["pack", CLI_DIR, "--pack-destination", directory, "--json", "--silent"], { encoding: "utf8" });
  if (packed.status !== 0) throw new Error(`npm pack of the quiltboard command failed: ${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout) as { filename: string }[];
  renameSync(path.join(directory, filename), target);
  return target;
}
