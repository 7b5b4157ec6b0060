// GET /api/v1/competitions/[slug]/leaderboard/late – the late board: exact holdout scores of submissions after the close
import { lateBoardSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { getLateBoard } from "@/lib/server/boards/late-board";
import { json, otherMethods } from "@/lib/server/platform/api";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/leaderboard/late",
    tag: "Viewing",
    summary: "The late board: each team's best exact holdout score among its late submissions",
    who: "anyone",
    auth: "optional",
    ok: { 200: { description: "the late board", reply: lateBoardSchema } },
  },
  async ({ user, params }) => json(await getLateBoard(user, params.slug)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
