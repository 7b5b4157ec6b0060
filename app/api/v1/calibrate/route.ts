// POST /api/v1/calibrate – the calibration planner, as `npm run calibrate` (no account needed)
import { handleApi, json, readJson } from "@/lib/server/api";
import { calibrate } from "@/lib/server/calibration";

export const POST = handleApi(async (request) => json(await calibrate(await readJson(request))));
