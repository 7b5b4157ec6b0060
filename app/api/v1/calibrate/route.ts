// POST /api/v1/calibrate – the calibration planner, as `npm run calibrate` (no account needed)
import { calibrationAnswerSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { calibrate } from "@/lib/server/competitions/calibration";
import { json, otherMethods } from "@/lib/server/platform/api";
import { clientAddress, consumeRateLimit } from "@/lib/server/platform/rate-limit";
import { calibrationRequestSchema } from "@/lib/validation/calibration";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/calibrate",
    tag: "Viewing",
    summary: "The calibration planner: ε_DP for an ε_BDP, ε_BDP for an ε_DP, or the plan for mechanism settings (as npm run calibrate)",
    who: "anyone",
    auth: "none",
    body: calibrationRequestSchema,
    ok: { 200: { description: "the answer", reply: calibrationAnswerSchema } },
    errors: [429],
  },
  async ({ request, body }) => {
    await consumeRateLimit("calibrateIp", clientAddress(request));
    return json(await calibrate(body));
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
