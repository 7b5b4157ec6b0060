// POST /api/v1/email-verification – {token} from the verification mail's link
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { verifyEmail } from "@/lib/server/accounts/email-links";

export const POST = handleApi(async (request) => json({ ...(await verifyEmail(await readJson(request))), verified: true }));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
