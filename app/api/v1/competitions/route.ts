// GET /api/v1/competitions – list competitions (?status=open|upcoming|closed&q=words&mine=true&page=&pageSize=)
// POST /api/v1/competitions – create a draft competition (the caller becomes its organizer)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { findApiUser, requireApiUser } from "@/lib/server/accounts/auth";
import { createCompetition, listCompetitions, toPublicDetails } from "@/lib/server/competitions/competitions";
import { competitionListQuerySchema } from "@/lib/validation/competitions";

export const dynamic = "force-dynamic";

export const GET = handleApi(async (request) =>
  json(await listCompetitions(await findApiUser(request), competitionListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams)))),
);

export const POST = handleApi(async (request) => {
  const user = await requireApiUser(request);
  return json(toPublicDetails(await createCompetition(user, await readJson(request))), 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
