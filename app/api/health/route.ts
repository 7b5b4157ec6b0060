// GET /api/health – liveness and readiness for load balancers and the image's HEALTHCHECK: 200 when
// the database answers, 503 otherwise. The first one (the process asks for it itself as soon as it
// listens, server/http-preload.mjs) also starts warming the scoring path (lib/server/scoring/warm.ts).
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { db } from "@/lib/server/platform/db";
import { warmScoring } from "@/lib/server/scoring/warm";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/health",
    tag: "Service",
    summary: "Liveness and readiness: 200 when the database answers",
    who: "anyone",
    auth: "none",
    ok: { 200: { description: "healthy", reply: z.object({ status: z.literal("ok") }) } },
  },
  async () => {
    await db.$queryRaw`SELECT 1`;
    void warmScoring();
    return json({ status: "ok" });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
