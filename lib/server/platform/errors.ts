import "server-only";
import { ZodError } from "zod";
import { log } from "./log";
import { MathInputError } from "@/lib/mechanism/errors";
import { ERROR_CODES, type ErrorCode } from "@/lib/responses";

/** A refusal no retry will change (an SMTP server's 5xx reply; a webhook's address that is not allowed), as opposed to an outage: the outbox gives the item up. */
export class PermanentDeliveryError extends Error {}

/** The one error of the web layer: a code, a message a user can act on, optional details. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }
}

export type ErrorBody = { error: { code: ErrorCode; message: string; details?: unknown } };

/**
 * Maps any thrown value to docs/api.md's error body and status: AppError to its status, zod issues to
 * 422 with the issues, a pure module's MathInputError to 422, anything else to 500 with a generic
 * message (the detail goes to the server log, never to the client).
 */
export function toErrorResponse(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return { status: error.status, body: { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } } };
  }
  if (error instanceof ZodError) {
    const details = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const message = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join("; ");
    return { status: 422, body: { error: { code: "unprocessable_entity", message, details } } };
  }
  if (error instanceof MathInputError) {
    return { status: 422, body: { error: { code: "unprocessable_entity", message: error.message } } };
  }
  if (isDatabaseUnavailable(error)) {
    log.error({ err: error instanceof Error ? error.message : String(error) }, "database unavailable");
    return { status: 503, body: { error: { code: "unavailable", message: "the database is unavailable; nothing was changed, try again in a few seconds" } } };
  }
  log.error({ err: error instanceof Error ? error.stack : String(error) }, "unhandled error");
  return { status: 500, body: { error: { code: "internal_error", message: "Something went wrong on our side. Please try again." } } };
}

/** A lost or refused database connection (as opposed to a bug): answered with 503 and a retry. */
function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : "";
    if (typeof code === "string" && ["ECONNREFUSED", "ECONNRESET", "EPIPE", "P1001", "P1002", "P1017", "57P01", "57P02", "57P03", "08006", "08001", "08003"].includes(code))
      return true;
    if (
      /ECONNREFUSED|Connection terminated|terminating connection|Can't reach database|connection is insecure|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
        message,
      )
    )
      return true;
    if (e instanceof Error && e.name === "PrismaClientInitializationError") return true;
  }
  return false;
}
