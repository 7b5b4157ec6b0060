// GET /api/v1/competitions – list competitions
import { handleApi, json } from "@/lib/server/api";
import { listCompetitions } from "@/lib/server/competitions";

export const dynamic = "force-dynamic";

export const GET = handleApi(async () => json({ competitions: await listCompetitions() }));
