// npm run quiltboard -- <command>: the `quiltboard` command in a clone, bundled afresh (scripts/cli-package.ts) and run as a
// competitor's machine runs it.
import { spawnSync } from "node:child_process";
import { buildCli, CLI_BIN } from "./cli-package";

buildCli();
const run = spawnSync(process.execPath, [CLI_BIN, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
