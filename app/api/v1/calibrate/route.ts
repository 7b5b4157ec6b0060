// POST /api/v1/calibrate – the calibration planner, as `npm run calibrate` (no account needed)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { calibrate } from "@/lib/server/competitions/calibration";
import { clientAddress, consumeRateLimit } from "@/lib/server/platform/rate-limit";

export const POST = handleApi(async (request) => {
  await consumeRateLimit("calibrateIp", clientAddress(request));
  return json(await calibrate(await readJson(request)));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
