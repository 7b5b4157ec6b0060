import { defineConfig } from "prisma/config";

// The CLI's connection; the app connects through the pg driver adapter (lib/server/platform/db.ts).
// `prisma generate` needs no database.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/quiltboard" },
});
