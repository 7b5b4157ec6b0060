// npm run build – the production build: `next build` and the standalone server completed with the
// project's entry (scripts/app.ts ensureBuilt). The Dockerfile runs it; npm start runs it when the
// sources changed.
import { ensureBuilt } from "./app";

ensureBuilt((line) => console.log(`[quiltboard] ${line}`));
