// POST /api/v1/organizer-invitations/accept – {token} from the invitation mail's link; the caller (with the address invited) becomes an organizer
import { handleApi, json, otherMethods, readJson } from "@/lib/server/platform/api";
import { requireApiUser } from "@/lib/server/accounts/auth";
import { acceptInvitation } from "@/lib/server/competitions/organizers";

export const POST = handleApi(async (request) => json(await acceptInvitation(await requireApiUser(request), await readJson(request))));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
