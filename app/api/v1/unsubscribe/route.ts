// POST /api/v1/unsubscribe?user=…&kind=…&sig=… – a notification mail's one-click unsubscribe (RFC 8058)
import { handleApi, json, otherMethods } from "@/lib/server/platform/api";
import { unsubscribe } from "@/lib/server/accounts/notifications";

export const POST = handleApi(async (request) => json(await unsubscribe(Object.fromEntries(new URL(request.url).searchParams))));

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
