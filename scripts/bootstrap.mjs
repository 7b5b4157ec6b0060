// The entry of `npm start` and `npm test`. Plain JavaScript because it runs before dependencies
// exist: installs them when missing or stale, then runs scripts/<command>.ts under tsx, passing on
// Ctrl-C and SIGTERM so that the app and the database stop with it.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";

const command = process.argv[2];
const installed = "node_modules/.package-lock.json";
const stale = !existsSync(installed) || !existsSync("node_modules/tsx") || statSync("package-lock.json").mtimeMs > statSync(installed).mtimeMs;
if (stale) {
  console.log("[quiltboard] installing dependencies (npm install)…");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["install", "--no-audit", "--no-fund"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// react-server resolves `server-only` to its no-op export, as inside Next's server bundle.
const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", `scripts/${command}.ts`, ...process.argv.slice(3)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
