// POST /api/v1/tokens – create a personal API token (HTTP Basic email:password, or the web session)
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireTokenCreator } from "@/lib/server/accounts/auth";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { createToken } from "@/lib/server/accounts/tokens";

export const POST = handleApi(async (request) => {
  const caller = await requireTokenCreator(request);
  return json(await createToken(caller, await readJson(request), clientAddress(request)), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
