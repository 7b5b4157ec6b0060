// @ts-check
// The entry of every package.json script that runs the project's code (`npm start`, `npm test`,
// build, admin, bench, calibrate, experiment, quiltboard): `node scripts/bootstrap.mjs <command>`.
// Plain JavaScript because it runs before dependencies exist, on whatever Node the machine has. It
// picks the Node to run on (scripts/runtime.mjs: the machine's if it satisfies package.json's
// engines, else Node 24 from the npm registry) and puts that Node first on PATH, so that npm, the
// dependencies' install scripts and every child that calls `node` or `npx` run on it too; installs
// the dependencies when missing or stale; then runs scripts/<command>.ts under tsx, passing on
// Ctrl-C and SIGTERM so that the app and the database stop with it.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { chooseNode, ensurePinnedNode, INSTALL_ARGS, PINNED, satisfies } from "./runtime.mjs";

const [command, ...args] = process.argv.slice(2);
const log = (/** @type {string} */ line) => console.log(`[quiltboard] ${line}`);

const engines = JSON.parse(readFileSync("package.json", "utf8")).engines.node;
let node = process.execPath;
let env = process.env;
if (chooseNode({ version: process.version, engines, ci: Boolean(process.env.CI) }) === "pinned") {
  const why = satisfies(process.version, engines)
    ? `CI runs on Node ${PINNED.version.split(".")[0]}, not the machine's ${process.version}`
    : `Node ${process.version} is older than this project needs (${engines})`;
  try {
    node = await ensurePinnedNode({ root: process.cwd(), why, log });
  } catch (error) {
    console.error(`[quiltboard] ${/** @type {Error} */ (error).message}`);
    process.exit(1);
  }
  env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}` };
}

const installed = "node_modules/.package-lock.json";
const stale = !existsSync(installed) || !existsSync("node_modules/tsx") || statSync("package-lock.json").mtimeMs > statSync(installed).mtimeMs;
if (stale) {
  log(`installing dependencies (npm ${INSTALL_ARGS.join(" ")})…`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, INSTALL_ARGS, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// react-server resolves `server-only` to its no-op export, as inside Next's server bundle.
const child = spawn(node, ["--conditions=react-server", "--import", "tsx", `scripts/${command}.ts`, ...args], { stdio: "inherit", env });
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
