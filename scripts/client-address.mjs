// Preloaded into the app's process (node --import): sets the header `x-quiltboard-client` on every
// request, before Next.js sees it, to the address the per-IP limits count (lib/server/rate-limit.ts).
// Next.js itself fills X-Forwarded-For with the socket's address only when a request does not bring
// its own, so a client talking to the app directly could claim any address; here the socket's
// address is used unless TRUST_PROXY=N says that N proxies in front append to X-Forwarded-For, in
// which case the address the outermost of them saw is used. Any `x-quiltboard-client` a client
// sends is overwritten.
import http from "node:http";

const hops = process.env.TRUST_PROXY === undefined || process.env.TRUST_PROXY === "" ? 0 : Number(process.env.TRUST_PROXY);
if (!Number.isInteger(hops) || hops < 0) throw new Error(`TRUST_PROXY must be the number of proxies in front of the app (0, 1, 2, …), found "${process.env.TRUST_PROXY}"`);

function clientAddress(req) {
  const socket = req.socket.remoteAddress || "unknown";
  if (hops === 0) return socket;
  const forwarded = String(req.headers["x-forwarded-for"] || "").split(",").map((s) => s.trim()).filter(Boolean);
  return forwarded.length >= hops ? forwarded[forwarded.length - hops] : socket;
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, ...rest) {
  if (event === "request") req.headers["x-quiltboard-client"] = clientAddress(req);
  return emit.call(this, event, req, ...rest);
};
