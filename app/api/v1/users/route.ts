// POST /api/v1/users – sign up
import { handleApi, json, readJson } from "@/lib/server/api";
import { createUser } from "@/lib/server/users";

export const POST = handleApi(async (request) => json(await createUser(await readJson(request)), 201));
