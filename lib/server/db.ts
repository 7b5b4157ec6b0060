import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "./env";

// One client per module instance, created on first use so that `next build` can load server
// modules without a database. In development it lives on globalThis to survive hot reloads.
const globalForDb = globalThis as unknown as { quiltboardDb?: PrismaClient };
let instance: PrismaClient | undefined;

function client(): PrismaClient {
  instance ??= globalForDb.quiltboardDb ?? new PrismaClient({ adapter: new PrismaPg({ connectionString: env().DATABASE_URL }) });
  if (process.env.NODE_ENV === "development") globalForDb.quiltboardDb = instance;
  return instance;
}

export const db = new Proxy({} as PrismaClient, {
  get(_, property) {
    const value = Reflect.get(client(), property);
    return typeof value === "function" ? value.bind(client()) : value;
  },
});
