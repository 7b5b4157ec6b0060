// GET /api/v1/competitions/[slug]/reveal – the solution, the secret and the transcript, once revealed (404 before)
// POST /api/v1/competitions/[slug]/reveal – reveal them (organizers, once closed)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { findApiUser, requireApiUser } from "@/lib/server/accounts/auth";
import { toPublicDetails } from "@/lib/server/competitions/competitions";
import { getReveal, revealCompetition } from "@/lib/server/boards/reveal";

type Context = { params: Promise<{ slug: string }> };

export const GET = handleApi(async (request, { params }: Context) => json(await getReveal(await findApiUser(request), (await params).slug)));

export const POST = handleApi(async (request, { params }: Context) => json(toPublicDetails(await revealCompetition(await requireApiUser(request), (await params).slug))));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
