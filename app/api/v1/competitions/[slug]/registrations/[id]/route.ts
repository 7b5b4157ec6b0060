// PUT /api/v1/competitions/[slug]/registrations/[id] – {status: "approved" | "refused"} (organizers); mails the applicant
import { registrationSchema } from "@/lib/responses";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { decideRegistration } from "@/lib/server/competitions/access";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { json, otherMethods } from "@/lib/server/platform/api";
import { registrationDecisionSchema } from "@/lib/validation/competitions";

export const PUT = defineRoute(
  {
    method: "PUT",
    path: "/api/v1/competitions/{slug}/registrations/{id}",
    tag: "Competitions",
    summary: "Approve or refuse a request; the applicant gets a mail",
    who: "organizers",
    auth: "required",
    body: registrationDecisionSchema,
    ok: { 200: { description: "the request", reply: registrationSchema } },
    errors: [403],
  },
  async ({ user, params, body }) => json(await decideRegistration(await requireOrganizer(user, params.slug), params.id, body)),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
