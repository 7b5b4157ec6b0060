import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "./env";

// One client per process (and across hot reloads in development), created on first use so that
// `next build` can load server modules without a database.
const globalForDb = globalThis as unknown as { quiltboardDb?: PrismaClient };

function client(): PrismaClient {
  globalForDb.quiltboardDb ??= new PrismaClient({ adapter: new PrismaPg({ connectionString: env().DATABASE_URL }) });
  return globalForDb.quiltboardDb;
}

export const db = new Proxy({} as PrismaClient, {
  get(_, property) {
    const value = Reflect.get(client(), property);
    return typeof value === "function" ? value.bind(client()) : value;
  },
});
