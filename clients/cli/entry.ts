// The entry of the bundled `quiltboard` command (scripts/cli-package.ts bundles from here).
import { main } from "./quiltboard";

await main(process.argv.slice(2));
