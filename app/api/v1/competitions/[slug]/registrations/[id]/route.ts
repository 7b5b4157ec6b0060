// PUT /api/v1/competitions/[slug]/registrations/[id] – {status: "approved" | "refused"} (organizers); mails the applicant
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { decideRegistration } from "@/lib/server/competitions/access";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";

export const PUT = handleApi(async (request, { params }: { params: Promise<{ slug: string; id: string }> }) => {
  const user = await requireApiUser(request);
  const { slug, id } = await params;
  const competition = await requireOrganizer(user, slug);
  return json(await decideRegistration(competition, id, await readJson(request)));
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
