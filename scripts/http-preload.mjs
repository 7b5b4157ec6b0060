// Preloaded into the app's process (node --import). Sets the header `x-quiltboard-client` on every
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


// Lingering close. When an answer goes out before the request's body was read to its end (a 413 at
// the size limit, a 422 at line 2 of a large upload), Node closes the socket as soon as the answer
// is written; closing with unread data makes the kernel reset the connection at once, which can
// discard the answer before the client reads it (seen under load with a 64 MiB chunked upload).
// Instead, as nginx's lingering_close does, the socket only half-closes after the answer and reads
// and drops what the client still sends, until the client closes or for at most 2 seconds.
const LINGER_MS = 2000;

function linger(socket) {
  socket.end();
  socket.on("data", () => {});
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("end", () => (clearTimeout(timer), socket.destroy()));
  socket.once("close", () => clearTimeout(timer));
}

/** Makes the request's socket linger instead of closing when its answer goes out before its body was read. */
function lingerOnEarlyAnswer(req) {
  const socket = req.socket;
  socket.quiltboardRequest = req; // the request a closing answer belongs to (sockets are reused)
  if (socket.quiltboardLingers) return;
  socket.quiltboardLingers = true;
  const destroySoon = socket.destroySoon;
  socket.destroySoon = function () {
    if (this.destroyed || this.quiltboardRequest.complete) return destroySoon.call(this);
    linger(this);
  };
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, ...rest) {
  if (event === "request") {
    req.headers["x-quiltboard-client"] = clientAddress(req);
    lingerOnEarlyAnswer(req);
  }
  return emit.call(this, event, req, ...rest);
};
