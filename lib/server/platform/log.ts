import "server-only";
import pino from "pino";

/**
 * The server's log: one JSON object per line on stdout (pino), like the request lines the app
 * process's HTTP preload writes (scripts/http-preload.mjs). Never log a secret: no tokens, passwords,
 * labels, raw scores, noise or seeds (the authorization tests scan the log for them).
 */
export const log = pino(
  { base: { service: "quiltboard" }, timestamp: pino.stdTimeFunctions.isoTime, level: process.env.LOG_LEVEL ?? "info" },
  pino.destination({ dest: 1, sync: true }),
);
