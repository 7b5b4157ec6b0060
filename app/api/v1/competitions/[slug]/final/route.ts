// GET /api/v1/competitions/[slug]/final – final standings once closed, with bounds, ties and the shake-up (?format=csv: as CSV)
import { z } from "zod";
import { finalStandingsSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { finalStandingsCsv, getFinalStandings } from "@/lib/server/closing/finals";
import { json, otherMethods } from "@/lib/server/platform/api";
import { fileResponse } from "../../../file-response";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/final",
    tag: "Viewing",
    summary:
      "The final standings, once closed: each exact final score with its bound (valid under the whole competition's adaptivity), the teams it is tied with, the shake-up; or as CSV",
    who: "anyone",
    auth: "optional",
    query: z.object({ format: z.enum(["csv"]).optional() }),
    ok: {
      200: {
        description: "the final standings",
        reply: finalStandingsSchema,
        alternatives: [{ csv: "every entry: rank, team, score, bound, tied_with (team names), live_rank, shake_up" }],
      },
    },
    errors: [409],
  },
  async ({ user, params, query }) => {
    if (query.format === "csv") {
      return fileResponse(await finalStandingsCsv(user, params.slug), { filename: `${params.slug}-final.csv`, contentType: "text/csv; charset=utf-8", cache: "no-store" });
    }
    return json(await getFinalStandings(user, params.slug));
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
