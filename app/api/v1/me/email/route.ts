// PUT /api/v1/me/email – a new address ({email, currentPassword}), unverified until its link is opened
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { changeEmail } from "@/lib/server/accounts/users";
import { clientAddress } from "@/lib/server/platform/rate-limit";

export const PUT = handleApi(async (request) => json(await changeEmail(await requireApiUser(request), await readJson(request), clientAddress(request))));

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods({ PUT });
