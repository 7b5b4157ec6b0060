// POST /api/v1/tokens – create a personal API token (HTTP Basic email:password)
import { handleApi, json, readJson } from "@/lib/server/api";
import { requireBasicUser } from "@/lib/server/auth";
import { clientAddress } from "@/lib/server/rate-limit";
import { createToken } from "@/lib/server/tokens";

export const POST = handleApi(async (request) => {
  const user = await requireBasicUser(request);
  return json(await createToken(user.id, await readJson(request), clientAddress(request)), 201);
});
