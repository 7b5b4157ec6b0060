// GET /api/v1/competitions/[slug]/leaderboard/late – the late board: exact holdout scores of submissions after the close
import { handleApi, json } from "@/lib/server/api";
import { findApiUser } from "@/lib/server/auth";
import { getLateBoard } from "@/lib/server/leaderboard";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  return json(await getLateBoard(await findApiUser(request), (await params).slug));
});
