// GET /api/v1/competitions/[slug]/changes – every settings change: who, when, before → after (organizers)
import { z } from "zod";
import { changeLogEntrySchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { listChanges } from "@/lib/server/competitions/settings";
import { json, otherMethods } from "@/lib/server/platform/api";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/changes",
    tag: "Competitions",
    summary: "Every settings change, newest first",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the change log", reply: z.object({ changes: z.array(changeLogEntrySchema) }) } },
    errors: [403],
  },
  async ({ user, params }) => json({ changes: await listChanges(await requireOrganizer(user, params.slug)) }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
