import "server-only";
import { lookup } from "node:dns";
import { lookup as lookupAll } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { Webhook } from "standardwebhooks";
import { env } from "./env";
import { AppError, PermanentDeliveryError } from "./errors";

/**
 * Webhooks over HTTP, signed as Standard Webhooks (https://www.standardwebhooks.com: the
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` headers, an HMAC-SHA256 of
 * "id.timestamp.body" under the receiver's `whsec_` secret, by the `standardwebhooks` library).
 * Nothing calls `deliverWebhook` but the outbox (outbox.ts), which retries it until it is taken.
 *
 * A receiver on a private, loopback or link-local address is refused (the server must not become a
 * way into its own network) unless QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE=1: at creation, by resolving the
 * host's every address; and at each delivery, by the lookup of the connection itself, so a name that
 * resolves elsewhere later (DNS rebinding) is refused too. Redirects are not followed.
 */

const PRIVATE = new net.BlockList();
// IANA's special-purpose IPv4 ranges that reach no public host: this network, private, shared (CGN), loopback, link-local, IETF, benchmarking, multicast, reserved.
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(address, prefix, "ipv4");
// IPv6: unspecified, loopback, unique local, link-local, multicast. (Not ::ffff:0:0/96: a BlockList
// matches IPv4 addresses against IPv4-mapped subnets, so that rule would refuse every IPv4 address.)
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  PRIVATE.addSubnet(address, prefix, "ipv6");

/** Whether `address` (an IP address) is private, loopback, link-local or otherwise not a public host's; an IPv4-mapped IPv6 address is, whatever it maps to. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (!family) throw new Error(`not an IP address: ${address}`);
  if (family === 6 && /^::ffff:/i.test(address)) return true;
  return PRIVATE.check(address, family === 6 ? "ipv6" : "ipv4");
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/**
 * POST …/webhooks: refuses (422, naming `url`) an address whose host does not resolve, or resolves
 * to any private address while QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE is off.
 */
export async function checkWebhookUrl(url: string): Promise<void> {
  const host = hostOf(new URL(url));
  const addresses = await lookupAll(host, { all: true, verbatim: true }).catch(() => null);
  if (!addresses?.length) throw new AppError("unprocessable_entity", `url: ${host} does not resolve`, [{ path: "url", message: `${host} does not resolve` }]);
  const refused = addresses.find((a) => isPrivateAddress(a.address));
  if (refused && !env().QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE) {
    const message = `${host} resolves to a private, loopback or link-local address (${refused.address}); webhooks go to public addresses only`;
    throw new AppError("unprocessable_entity", `url: ${message}`, [{ path: "url", message }]);
  }
}

/** The connection's own lookup: the addresses it would connect to, refused when private (unless allowed). */
const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 4);
    const list = addresses as unknown as { address: string; family: number }[];
    const refused = env().QUILTBOARD_WEBHOOKS_ALLOW_PRIVATE ? undefined : list.find((a) => isPrivateAddress(a.address));
    if (refused) return callback(new PermanentDeliveryError(`${hostname} resolves to a private address (${refused.address}), which this deployment refuses`), "", 4);
    if (options.all) return callback(null, list as never);
    callback(null, list[0].address, list[0].family);
  });
};

const TIMEOUT_MS = 10_000;

/**
 * POSTs one event `body` (JSON text) to `url`, signed under `secret` with `id` (the outbox row's:
 * the same on every retry, as Standard Webhooks asks, so a receiver can drop a repeat). Resolves
 * when the receiver answers 2xx; throws otherwise (PermanentDeliveryError for a refused address).
 */
export async function deliverWebhook(options: { id: string; url: string; secret: string; body: string; now?: Date }): Promise<void> {
  const url = new URL(options.url);
  const now = options.now ?? new Date();
  const signature = new Webhook(options.secret).sign(options.id, now, options.body);
  const headers = {
    "content-type": "application/json",
    "user-agent": "Quiltboard-Webhooks/1",
    "webhook-id": options.id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signature,
    "content-length": String(Buffer.byteLength(options.body)),
  };
  const status = await new Promise<number>((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(url, { method: "POST", headers, lookup: guardedLookup, timeout: TIMEOUT_MS }, (response) => {
      response.resume(); // the answer's body is not read
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on("error", reject);
    request.end(options.body);
  });
  if (status < 200 || status >= 300) throw new Error(`the receiver answered HTTP ${status}`);
}
