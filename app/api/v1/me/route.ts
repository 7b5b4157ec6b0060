// GET /api/v1/me – the caller's account, with emailVerified
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { getMe } from "@/lib/server/accounts/users";

export const GET = handleApi(async (request) => json(await getMe(await requireApiUser(request))));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
