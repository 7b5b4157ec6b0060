// GET /api/v1/competitions – list competitions
// POST /api/v1/competitions – create a draft competition (the caller becomes its organizer)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { findApiUser, requireApiUser } from "@/lib/server/accounts/auth";
import { createCompetition, listCompetitions, toPublicDetails } from "@/lib/server/competitions/competitions";

export const dynamic = "force-dynamic";

export const GET = handleApi(async (request) => json({ competitions: await listCompetitions(await findApiUser(request)) }));

export const POST = handleApi(async (request) => {
  const user = await requireApiUser(request);
  return json(toPublicDetails(await createCompetition(user, await readJson(request))), 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
