// GET /api/v1/competitions/[slug]/final – final standings once closed, with the shake-up
import { handleApi, json } from "@/lib/server/platform/api";
import { findApiUser } from "@/lib/server/accounts/auth";
import { getFinalStandings } from "@/lib/server/boards/finals";

export const GET = handleApi(async (request, { params }: { params: Promise<{ slug: string }> }) => json(await getFinalStandings(await findApiUser(request), (await params).slug)));
