// POST /api/v1/competitions/[slug]/teams/leave – leave one's team (before its first submission)
import { doneSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { json, otherMethods } from "@/lib/server/platform/api";
import { leaveTeam } from "@/lib/server/teams/teams";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/teams/leave",
    tag: "Teams and submissions",
    summary: "Leave the caller's team (before its first submission)",
    who: "signed in",
    auth: "required",
    ok: { 200: { description: "left", reply: doneSchema("left") } },
    errors: [403, 409],
  },
  async ({ user, params }) => {
    await leaveTeam(user, params.slug);
    return json({ left: true });
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
