import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// The server's domains, lowest first: each may import the ones before it and none after
// (docs/ARCHITECTURE.md, "Layers"). teams, boards and console are siblings: none imports another;
// closing stands on boards (the live order it ranks the close against) and never imports teams.
const DOMAINS = ["platform", "accounts", "competitions", "teams", "boards", "console", "closing", "scoring"];
const ABOVE = {
  platform: DOMAINS.slice(1),
  accounts: DOMAINS.slice(2),
  competitions: DOMAINS.slice(3),
  teams: ["boards", "console", "closing", "scoring"],
  boards: ["teams", "console", "closing", "scoring"],
  console: ["teams", "boards", "closing", "scoring"],
  closing: ["teams", "console", "scoring"],
  scoring: [],
};
const PURE = ["mechanism", "calibration", "metrics", "csv", "experiments", "validation"];

/** The environment is read through env() of lib/server/platform/env.ts (below: lib/, app/ and lib/validation). */
const noProcessEnv = {
  object: "process",
  property: "env",
  message: "read configuration through env() of lib/server/platform/env.ts, where each variable is declared and validated",
};

const noProcessImport = {
  selector: "ImportDeclaration[source.value=/^(node:)?process$/]",
  message: "read configuration through env() of lib/server/platform/env.ts, not node:process",
};

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  // App Router only: there is no pages/ directory for this rule to check.
  { rules: { "@next/next/no-html-link-for-pages": "off" } },
  // Six or more arguments read as a row of unnamed values at the call: take an options object instead.
  { rules: { "max-params": ["error", 5] } },
  {
    rules: {
      // eslint-plugin-import is the one eslint-config-next registers, with its TypeScript resolver;
      // `import type` is not a dependency at run time and is not counted.
      "import/no-cycle": ["error", { ignoreExternal: true }],
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            ...Object.entries(ABOVE).flatMap(([domain, above]) =>
              above.map((other) => ({
                target: `./lib/server/${domain}`,
                from: `./lib/server/${other}`,
                message: `lib/server/${domain} is below ${other}: move the code, not the arrow`,
              })),
            ),
            ...PURE.map((pure) => ({
              target: `./lib/${pure}`,
              from: ["./lib/server", "./lib/generated", "./app"],
              message: "pure modules import no server, database or page code (docs/ARCHITECTURE.md)",
            })),
            { target: "./lib", from: "./app", message: "lib/ never imports page code: move what both need into lib/" },
            { target: "./scripts", from: "./test", message: "scripts/ never imports test/: what both need lives in scripts/support/" },
            { target: "./server", from: ["./scripts", "./test", "./clients"], message: "the image's runtime (server/) ships alone: it imports lib/ and itself only" },
            {
              target: "./clients/cli",
              from: ["./scripts", "./test", "./server", "./lib/server"],
              message: "the quiltboard command is bundled alone: it imports pure lib/ code and itself only",
            },
          ],
        },
      ],
    },
  },
  // The environment is read through one validated schema (lib/server/platform/env.ts: env()), never
  // straight from process.env; scripts/ and test/ may read their own variables.
  {
    files: ["lib/**", "app/**"],
    ignores: ["lib/server/platform/env.ts"],
    rules: {
      "no-restricted-properties": ["error", noProcessEnv],
      "no-restricted-syntax": ["error", noProcessImport],
    },
  },
  // Pages write one way: through the REST API with app/_components/api-client.ts (callApi,
  // uploadWithProgress), to the endpoints every other client uses; no server actions, no other fetch.
  // (A later no-restricted-syntax replaces an earlier one's, so this one repeats the node:process ban.)
  {
    files: ["app/**"],
    ignores: ["app/api/**", "app/_components/api-client.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        noProcessImport,
        { selector: "CallExpression[callee.name='fetch']", message: "call the API through callApi of app/_components/api-client.ts" },
        { selector: "ExpressionStatement[directive='use server']", message: "no server actions: write through the REST API (callApi of app/_components/api-client.ts)" },
      ],
    },
  },
  // Request input is parsed by lib/validation's schemas, whose strings are lib/validation/text.ts's
  // text(): a NUL in any field is a 422 naming it, never a 500 from the database. (A later block's
  // no-restricted-properties replaces an earlier one's, so this one repeats the process.env ban.)
  {
    files: ["lib/validation/**"],
    ignores: ["lib/validation/text.ts"],
    rules: {
      "no-restricted-properties": ["error", noProcessEnv, { object: "z", property: "string", message: "use text() from lib/validation/text.ts (it refuses NUL)" }],
    },
  },
  // Links go through app/_components/link.tsx (no prefetching: every page is dynamic).
  {
    files: ["app/**"],
    ignores: ["app/_components/link.tsx"],
    rules: { "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "import Link from app/_components/link.tsx (it does not prefetch)" }] }] },
  },
  globalIgnores([".next/**", "dist/**", ".data/**", "node_modules/**", "lib/generated/**", "next-env.d.ts", "experiments/out/**"]),
]);
