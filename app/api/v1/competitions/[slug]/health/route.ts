// GET /api/v1/competitions/[slug]/health – privacy spent per team and in total (organizers)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { holdoutHealth } from "@/lib/server/scoring/audit";
import { requireApiUser } from "@/lib/server/accounts/auth";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => json(await holdoutHealth(await requireApiUser(request), (await params).slug)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
