import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Four projects, run one at a time by scripts/test.ts: unit (pure code, seconds), slow (pure code at full
// size: brute-force checks of the Markov bounds, 10⁶-row parses, the fuzzer, the lock file's reinstall),
// integration (server code on a real PostgreSQL: DATABASE_URL) and e2e (the running app: APP_URL, and
// Chromium for pages).
export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // server-only throws outside a React Server Component bundle; tests import server code directly.
      "server-only": fileURLToPath(new URL("./test/fixtures/server-only.ts", import.meta.url)),
    },
  },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "slow", include: ["test/slow/**/*.test.ts"] } },
      { extends: true, test: { name: "integration", include: ["test/integration/**/*.test.ts"] } },
      // A page's answer to a click is a round trip to the server: expect.poll waits up to 15 s for it (vitest's
      // default, 1 s, failed the merge and keyboard walks whenever the machine was busy).
      {
        extends: true,
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], setupFiles: ["test/e2e/setup.ts"], testTimeout: 120_000, expect: { poll: { timeout: 15_000 } } },
      },
    ],
  },
});
