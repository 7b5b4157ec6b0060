// GET /api/v1/competitions/[slug]/leaderboard – a page of the live leaderboard (?page=&pageSize=, ?q=), or all of it as CSV (?format=csv)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { findApiUser } from "@/lib/server/accounts/auth";
import { getLeaderboard, leaderboardCsv } from "@/lib/server/boards/leaderboard";
import { leaderboardQuerySchema } from "@/lib/validation/competitions";
import { fileResponse } from "../../../file-response";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const { slug } = await params;
  // 422 naming the parameter for a page that is not a whole number in range (?page=1e300 was a 500).
  const { format, ...query } = leaderboardQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const viewer = await findApiUser(request);
  if (format === "csv") {
    return fileResponse(await leaderboardCsv(viewer, slug), { filename: `${slug}-leaderboard.csv`, contentType: "text/csv; charset=utf-8", cache: "no-store" });
  }
  // The board is public and always revalidated (no-cache), not no-store: a page whose scripts
  // received a no-store answer is not kept for Back, and the live board asks every 10 s.
  const response = json(await getLeaderboard(viewer, slug, query));
  response.headers.set("cache-control", "no-cache");
  return response;
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
