import "server-only";
import pino from "pino";
import { env } from "./env";

/**
 * The server's log: one JSON object per line on stdout (pino), like the request lines the app
 * process's HTTP preload writes (server/http-preload.mjs), at LOG_LEVEL (read when this module
 * loads: the one variable read then). Never log a secret: no tokens, passwords, labels, raw scores,
 * noise or seeds (the authorization tests scan the log for them).
 */
export const log = pino({ base: { service: "quiltboard" }, timestamp: pino.stdTimeFunctions.isoTime, level: env().LOG_LEVEL }, pino.destination({ dest: 1, sync: true }));
