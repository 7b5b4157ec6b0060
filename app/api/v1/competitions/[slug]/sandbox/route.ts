// GET /api/v1/competitions/[slug]/sandbox – every sandbox test with its exact scores (organizers)
import { z } from "zod";
import { sandboxTestSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { json, otherMethods } from "@/lib/server/platform/api";
import { listSandbox } from "@/lib/server/scoring/sandbox";

export const GET = defineRoute(
  {
    method: "GET",
    path: "/api/v1/competitions/{slug}/sandbox",
    tag: "Teams and submissions",
    summary: "Every sandbox test with its exact scores",
    who: "organizers",
    auth: "required",
    ok: { 200: { description: "the tests", reply: z.object({ tests: z.array(sandboxTestSchema) }) } },
    errors: [403],
  },
  async ({ user, params }) => json({ tests: await listSandbox(await requireOrganizer(user, params.slug)) }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
