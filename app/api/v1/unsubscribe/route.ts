// POST /api/v1/unsubscribe?user=…&kind=…&sig=… – a notification mail's one-click unsubscribe (RFC 8058)
import { z } from "zod";
import { defineRoute } from "@/lib/server/accounts/endpoint";
import { unsubscribe } from "@/lib/server/accounts/notifications";
import { json, otherMethods } from "@/lib/server/platform/api";
import { unsubscribeSchema } from "@/lib/validation/accounts";

export const POST = defineRoute(
  {
    method: "POST",
    path: "/api/v1/unsubscribe",
    tag: "Accounts",
    summary: "A notification mail's one-click unsubscribe (RFC 8058): no more mail of that kind",
    who: "anyone with the link",
    auth: "none",
    query: unsubscribeSchema,
    ok: { 200: { description: "unsubscribed", reply: z.object({ kind: unsubscribeSchema.shape.kind, label: z.string(), unsubscribed: z.literal(true) }) } },
  },
  async ({ query }) => json(await unsubscribe(query)),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
