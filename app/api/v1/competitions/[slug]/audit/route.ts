// GET /api/v1/competitions/[slug]/audit – replay every answer from the stored secret (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { auditCompetition } from "@/lib/server/scoring/audit";
import { requireApiUser } from "@/lib/server/accounts/auth";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) =>
  json(await auditCompetition(await requireApiUser(request), (await params).slug)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
