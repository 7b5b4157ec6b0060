// The entry of the bundled `quiltboard` command (scripts/cli/build.ts bundles from here).
import { main } from "./quiltboard";

await main(process.argv.slice(2));
