// GET /api/v1/competitions/[slug]/leaderboard/late – the late board: exact holdout scores of submissions after the close
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { findApiUser } from "@/lib/server/accounts/auth";
import { getLateBoard } from "@/lib/server/boards/late-board";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => {
  return json(await getLateBoard(await findApiUser(request), (await params).slug));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
