// GET /api/v1/competitions/[slug]/leaderboard – a page of the live leaderboard (?page=&pageSize=, ?q=), or all of it as CSV (?format=csv)
import { handleApi, json } from "@/lib/server/platform/api";
import { findApiUser } from "@/lib/server/accounts/auth";
import { getLeaderboard, leaderboardCsv } from "@/lib/server/boards/leaderboard";
import { leaderboardQuerySchema } from "@/lib/validation/competitions";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  const { slug } = await params;
  // 422 naming the parameter for a page that is not a whole number in range (?page=1e300 was a 500).
  const { format, ...query } = leaderboardQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const viewer = await findApiUser(request);
  if (format === "csv") {
    return new Response(await leaderboardCsv(viewer, slug), {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${slug}-leaderboard.csv"`, "cache-control": "no-store" },
    });
  }
  return json(await getLeaderboard(viewer, slug, query));
});
