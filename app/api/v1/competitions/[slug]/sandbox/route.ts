// GET /api/v1/competitions/[slug]/sandbox – every sandbox test with its exact scores (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { requireOrganizer } from "@/lib/server/competitions/competitions";
import { listSandbox } from "@/lib/server/scoring/sandbox";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => {
  const competition = await requireOrganizer(await requireApiUser(request), (await params).slug);
  return json({ tests: await listSandbox(competition) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
