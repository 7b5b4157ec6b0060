#!/usr/bin/env node
// The `quiltboard` command (package.json "bin"): runs scripts/cli/quiltboard.ts under tsx.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./cli/quiltboard.ts");
await main(process.argv.slice(2));
