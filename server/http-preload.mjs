// Preloaded into the app's process (node --import) in front of Next.js's HTTP server; it does seven
// things, each described where it is done below:
// 1. a request id and one JSON log line per request, and the request-duration metrics;
// 2. the client address the per-IP limits count (header x-quiltboard-client);
// 3. a lingering close when an answer goes out before the request's body was read;
// 4. the Content-Length of a download (header x-quiltboard-length);
// 5. a first GET /api/health as soon as the server listens, which warms the scoring path;
// 6. the request's body stream, handed to the route handler (header x-quiltboard-body);
// 7. a local file's bytes, sent here when the route handler asks (header x-quiltboard-response).
// (Graceful shutdown is Next.js's own: on SIGTERM it stops accepting connections, answers the
// requests in flight and exits with 143; test/e2e/observability.test.ts checks it.)
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";

const load = createRequire(path.join(process.cwd(), "server.js"));
const client = load("prom-client");
const pino = load("pino");
const log = pino(
  { base: { service: "quiltboard" }, timestamp: pino.stdTimeFunctions.isoTime, level: process.env.LOG_LEVEL?.trim() || "info" },
  pino.destination({ dest: 1, sync: true }),
);

client.collectDefaultMetrics();
const durations = new client.Histogram({
  name: "quiltboard_http_request_duration_seconds",
  help: "HTTP requests by method, route pattern and status: time to the end of the answer",
  labelNames: ["method", "route", "status"],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

// 1. Every request gets a request id (a client's X-Request-Id when it is a plain token, else a new
//    UUID), echoed in the answer's X-Request-Id, and one JSON log line when it ends (pino): time, id,
//    method, path (never the query string: reset links carry tokens there), route, status and
//    duration. The duration goes to the Prometheus histogram quiltboard_http_request_duration_seconds
//    (by method, route pattern and status), beside Node's process metrics; GET /api/metrics
//    (lib/server/platform/metrics.ts) serves them. prom-client and pino are loaded from where the server
//    loads them (the directory it runs in), so both fill one registry.
// Route labels come from the app's own routes (Next's routes-manifest.json in the directory the
// server runs in): a label is a route pattern such as /api/v1/competitions/{slug}/submissions,
// never a path a client made up, so requests to unique paths add no series (each series is a dozen
// buckets; 2,000 made-up paths once added 28,000). Anything no route matches is "other".
const manifest = JSON.parse(readFileSync(path.join(process.cwd(), ".next", "routes-manifest.json"), "utf8"));
const staticRoutes = new Set(manifest.staticRoutes.map((r) => r.page));
const dynamicRoutes = manifest.dynamicRoutes.map((r) => ({ label: r.page.replace(/\[([^\]]+)\]/g, "{$1}"), regex: new RegExp(r.regex) }));

/** The route pattern a path is served by: a static route, a dynamic one with its parameters as {name}, /_next/* for Next's assets, else "other". */
export function routeOf(pathname) {
  if (pathname.startsWith("/_next/")) return "/_next/*";
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (staticRoutes.has(trimmed)) return trimmed;
  return dynamicRoutes.find((r) => r.regex.test(pathname))?.label ?? "other";
}

function track(req, res) {
  const given = req.headers["x-request-id"];
  const id = typeof given === "string" && /^[\w.-]{8,64}$/.test(given) ? given : randomUUID();
  req.headers["x-request-id"] = id;
  res.setHeader("x-request-id", id);
  const start = process.hrtime.bigint();
  res.once("close", () => {
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const pathname = (req.url ?? "/").split("?")[0];
    const route = routeOf(pathname);
    durations.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
    log.info(
      { reqId: id, method: req.method, path: pathname.slice(0, 300), route, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10, finished: res.writableFinished },
      "request",
    );
  });
}

// 2. The header `x-quiltboard-client` on every request, before Next.js sees it, is the address the
//    per-IP limits count (lib/server/platform/rate-limit.ts). Next.js itself fills X-Forwarded-For with the
//    socket's address only when a request does not bring its own, so a client talking to the app
//    directly could claim any address; here the socket's address is used unless TRUST_PROXY=N says
//    that N proxies in front append to X-Forwarded-For, in which case the address the outermost of
//    them saw is used. Any `x-quiltboard-client` a client sends is overwritten. (The entry,
//    server/entry.ts, has checked TRUST_PROXY and LOG_LEVEL against the configuration's
//    schema, lib/server/platform/env.ts, before it loads this file.)
const hops = Number(process.env.TRUST_PROXY?.trim() || 0);

function clientAddress(req) {
  const socket = req.socket.remoteAddress || "unknown";
  if (hops === 0) return socket;
  const forwarded = String(req.headers["x-forwarded-for"] || "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return forwarded.length >= hops ? forwarded[forwarded.length - hops] : socket;
}

// 3. Lingering close. When an answer goes out before the request's body was read to its end (a 413
//    at the size limit, a 422 at line 2 of a large upload), Node closes the socket as soon as the
//    answer is written; closing with unread data makes the kernel reset the connection at once,
//    which can discard the answer before the client reads it (seen under load with a 64 MiB chunked
//    upload). Instead, as nginx's lingering_close does, the socket only half-closes after the answer
//    and reads and drops what the client still sends, until the client closes or for at most 2 s.
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

// 4. A download's length. Next.js drops a route handler's Content-Length (a fetched body may have
//    been decoded on the way), so a download would arrive chunked, without the size a browser shows
//    progress against. A route that knows the length of what it sends says it in the private header
//    x-quiltboard-length (app/api/v1/file-response.ts, which also asks for no compression with
//    Cache-Control no-transform); here that header becomes Content-Length.
const LENGTH = "x-quiltboard-length";

function keepLength(res) {
  const setHeader = res.setHeader;
  res.setHeader = function (name, value) {
    if (String(name).toLowerCase() !== LENGTH) return setHeader.call(this, name, value);
    const length = String(Array.isArray(value) ? value[value.length - 1] : value);
    return /^\d+$/.test(length) ? setHeader.call(this, "content-length", length) : this;
  };
}

// 5. Warming up. The route handlers' code runs in module instances of its own (not
//    instrumentation's), so the process warms its scoring path by asking itself for GET /api/health
//    once it listens (lib/server/scoring/warm.ts), and then sends a submission with an API token that
//    is no one's (answered 401 before its body is read): Next.js loads a route's code on its first
//    request, and the token's look-up runs once. The first submission then costs about what later
//    ones do.
function askForHealth(server) {
  const { address, port } = server.address();
  const host = address === "0.0.0.0" || address === "::" ? "127.0.0.1" : address;
  const failed = (error) => log.warn({ err: error.message }, "warming up failed");
  http
    .get({ host, port, path: "/api/health" }, (res) => {
      res.resume();
      res.on("end", () => {
        http
          .request({ host, port, method: "POST", path: "/api/v1/competitions/warm-up/submissions", headers: { authorization: `Bearer qb_warm-up-${randomUUID()}` } }, (answer) =>
            answer.resume(),
          )
          .on("error", failed)
          .end();
      });
    })
    .on("error", failed);
}

// 6. A request's body as Node's stream. A route handler's request.body is a web stream that Next.js
//    makes by giving Node's request to undici's Request, which copies every chunk it reads: an upload
//    of 1 GiB allocates another GiB, which the garbage collector pays for with full collections.
//    Next.js 16 offers no way to read a route's body otherwise, so the request stream is kept here
//    under a random id, which the header x-quiltboard-body names (a client's own is overwritten), and
//    lib/server/platform/api.ts (limitedBody) reads it from there; the entry is gone once the answer
//    has gone out. Routing, authorization and every limit stay where they are: only the source of
//    the bytes changes.
const BODY = "x-quiltboard-body";
const bodies = new Map();
globalThis[Symbol.for("quiltboard.requestBodies")] = bodies;

function handBody(req, res) {
  delete req.headers[BODY];
  if (req.method === "GET" || req.method === "HEAD") return;
  const id = randomUUID();
  req.headers[BODY] = id;
  bodies.set(id, req);
  res.once("close", () => bodies.delete(id));
}

// 7. A file of the local store sent by this process itself. A route's answer goes out as a web
//    stream that Next.js pipes into Node's response; Node's file stream allocates a buffer for every
//    64 KiB it reads, Readable.toWeb copies each, and all of them wait for the garbage collector:
//    20 downloads at once grew the app by ~110 MB, and the collections they started delayed other
//    requests. So every GET gets a random id in the header x-quiltboard-response (a client's own is
//    overwritten) under which the route handler (app/api/v1/file-response.ts) may leave the file it
//    answers with (its path and byte range) and then answer with no body; when Next.js ends that
//    answer, its headers (status, Content-Length, ETag, Content-Range…) are the route's, and the bytes
//    are read here into two buffers of 256 KiB, each read again only once the socket has taken what
//    was written from it. Routing, authorization, the ETag and the Range are the route's: only who
//    copies the bytes changes.
const RESPONSE = "x-quiltboard-response";
const responses = new Map();
globalThis[Symbol.for("quiltboard.responseFiles")] = responses;
const FILE_CHUNK = 256 * 1024;
const FILE_BUFFERS = 2;

function handResponse(req, res) {
  delete req.headers[RESPONSE];
  if (req.method !== "GET") return;
  const id = randomUUID();
  let file = null;
  req.headers[RESPONSE] = id;
  responses.set(id, (given) => (file = given));
  res.once("close", () => responses.delete(id));
  const end = res.end;
  res.end = function (chunk, ...rest) {
    if (!file || (chunk != null && typeof chunk !== "function")) return end.call(this, chunk, ...rest);
    const sending = file;
    file = null;
    sendFile(res, sending).then(
      () => end.call(res),
      (error) => {
        log.error({ reqId: req.headers["x-request-id"], err: error.message }, "sending a file failed");
        res.destroy(error);
      },
    );
    return this;
  };
}

/**
 * Writes bytes `start`…`end` (inclusive) of the file at `path` to `res`, with two buffers reused.
 * Stops as soon as the client is gone (the response closed or destroyed, or a write failed), also
 * when that happened before the file was open: nothing is read for nobody.
 */
async function sendFile(res, { path: file, start, end }) {
  let wake = null;
  let gone = res.destroyed;
  const onClose = () => ((gone = true), wake?.());
  res.once("close", onClose);
  const handle = gone ? null : await open(file, "r");
  try {
    const free = Array.from({ length: FILE_BUFFERS }, () => Buffer.allocUnsafeSlow(FILE_CHUNK));
    const release = (buffer) => (error) => (error && (gone = true), free.push(buffer), wake?.());
    for (let position = start; position <= end;) {
      while (!free.length && !gone) await new Promise((resolve) => (wake = resolve));
      if (gone || res.destroyed) return; // the client went away
      const buffer = free.pop();
      const { bytesRead } = await handle.read(buffer, 0, Math.min(FILE_CHUNK, end + 1 - position), position);
      if (bytesRead === 0) throw new Error(`${file} ended at byte ${position}, before ${end + 1}`);
      position += bytesRead;
      res.write(buffer.subarray(0, bytesRead), release(buffer));
    }
  } finally {
    res.off("close", onClose);
    await handle?.close();
  }
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, ...rest) {
  if (event === "listening" && typeof this.address() === "object") askForHealth(this);
  if (event === "request") {
    track(req, rest[0]);
    keepLength(rest[0]);
    req.headers["x-quiltboard-client"] = clientAddress(req);
    lingerOnEarlyAnswer(req);
    handBody(req, rest[0]);
    handResponse(req, rest[0]);
  }
  return emit.call(this, event, req, ...rest);
};
