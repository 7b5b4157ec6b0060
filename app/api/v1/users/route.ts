// POST /api/v1/users – sign up
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { clientAddress } from "@/lib/server/platform/rate-limit";
import { registerUser } from "@/lib/server/accounts/users";

export const POST = handleApi(async (request) => json(await registerUser(await readJson(request), clientAddress(request)), 201));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
