// POST /api/v1/organizer-invitations/accept – {token} from the invitation mail's link; the caller (with the address invited) becomes an organizer
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { acceptInvitation } from "@/lib/server/competitions/organizers";
import { json, otherMethods } from "@/lib/server/platform/api";
import { invitationSchema } from "@/lib/validation/competitions";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/organizer-invitations/accept",
    tag: "Competitions",
    summary: "Accept an invitation to organize with the token of its link",
    who: "signed in, with the address invited",
    auth: "required",
    body: invitationSchema,
    ok: { 200: { description: "the competition the caller now organizes", reply: z.object({ slug: z.string(), title: z.string() }) } },
    errors: [403, 409],
  },
  async ({ user, body }) => json(await acceptInvitation(user, body)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
