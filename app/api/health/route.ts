// GET /api/health – liveness and readiness for load balancers and the image's HEALTHCHECK: 200 when
// the database answers, 503 otherwise
import { handleApi, json } from "@/lib/server/platform/api";
import { db } from "@/lib/server/platform/db";

export const GET = handleApi(async () => {
  await db.$queryRaw`SELECT 1`;
  return json({ status: "ok" });
});
