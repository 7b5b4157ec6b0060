import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  // App Router only: there is no pages/ directory for this rule to check.
  { rules: { "@next/next/no-html-link-for-pages": "off" } },
  globalIgnores([".next/**", ".data/**", "node_modules/**", "lib/generated/**", "next-env.d.ts", "experiments/out/**"]),
]);
