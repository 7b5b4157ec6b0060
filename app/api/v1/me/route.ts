// GET /api/v1/me – the caller's account
import { handleApi, json } from "@/lib/server/api";
import { requireApiUser } from "@/lib/server/auth";

export const GET = handleApi(async (request) => json(await requireApiUser(request)));
