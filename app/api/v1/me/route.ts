// GET /api/v1/me – the caller's account, with emailVerified
import { handleApi, json } from "@/lib/server/api";
import { requireApiUser } from "@/lib/server/auth";
import { getMe } from "@/lib/server/users";

export const GET = handleApi(async (request) => json(await getMe(await requireApiUser(request))));
