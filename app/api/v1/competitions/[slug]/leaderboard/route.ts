// GET /api/v1/competitions/[slug]/leaderboard – a page of the live leaderboard (?page=&pageSize=, ?q=), or all of it as CSV (?format=csv)
import { leaderboardSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { getLeaderboard, leaderboardCsv } from "@/lib/server/boards/leaderboard";
import { json, otherMethods } from "@/lib/server/platform/api";
import { leaderboardQuerySchema } from "@/lib/validation/competitions";
import { fileResponse } from "../../../file-response";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/leaderboard",
    tag: "Viewing",
    summary: "A page of the live leaderboard (100 entries unless pageSize says otherwise, with the next page's address), or every entry as CSV",
    who: "anyone",
    auth: "optional",
    query: leaderboardQuerySchema,
    ok: {
      200: {
        description: "a page of the board",
        reply: leaderboardSchema,
        alternatives: [{ csv: "every entry: rank, team, score, kind, bound, uncertainty, submissions, budget, last submission" }],
      },
    },
  },
  async ({ user, params, query }) => {
    const { format, ...page } = query;
    if (format === "csv") {
      return fileResponse(await leaderboardCsv(user, params.slug), { filename: `${params.slug}-leaderboard.csv`, contentType: "text/csv; charset=utf-8", cache: "no-store" });
    }
    // The board is public and always revalidated (no-cache), not no-store: a page whose scripts
    // received a no-store answer is not kept for Back, and the live board asks every 10 s.
    const response = json(await getLeaderboard(user, params.slug, page));
    response.headers.set("cache-control", "no-cache");
    return response;
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
