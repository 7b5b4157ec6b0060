// GET /api/v1/competitions/[slug]/announcements – the competition's announcements, newest first
// POST /api/v1/competitions/[slug]/announcements – post one, mailed to every participant (organizers)
import { z } from "zod";
import { announcementViewSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { listAnnouncements, postAnnouncement } from "@/lib/server/competitions/announcements";
import { getVisibleCompetition, requireOrganizer } from "@/lib/server/competitions/competitions";
import { json, otherMethods } from "@/lib/server/platform/api";
import { announcementSchema } from "@/lib/validation/competitions";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/announcements",
    tag: "Competitions",
    summary: "The competition's announcements, newest first: the organizers' posts and the notices of changed settings, the deadline a day ahead and the close",
    who: "anyone who sees it",
    auth: "optional",
    ok: { 200: { description: "the announcements", reply: z.object({ announcements: z.array(announcementViewSchema) }) } },
  },
  async ({ user, params }) => {
    const competition = await getVisibleCompetition(user, params.slug);
    return json({ announcements: await listAnnouncements(competition.id) });
  },
);

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/competitions/{slug}/announcements",
    tag: "Competitions",
    summary: "Post an announcement (Markdown, no raw HTML), mailed once to every participant who did not turn announcements off",
    who: "organizers, once published",
    auth: "required",
    body: announcementSchema,
    ok: { 201: { description: "the announcement", reply: announcementViewSchema } },
    errors: [403, 409],
  },
  async ({ user, params, body }) => json(await postAnnouncement(user, await requireOrganizer(user, params.slug), body), 201),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
