import "server-only";
import { after } from "next/server";
import { log } from "./log";

/**
 * Runs `task` once the current request's answer has gone out, without holding it: for work whose
 * duration must not show in the answer's time (a password reset's lookup and mail would tell which
 * addresses have accounts). Next.js's `after` starts it when the answer is finished, so it does not
 * compete with the answer either; outside a request (tests, scripts) it starts at once. A failure is
 * logged with `what` (never the task's data).
 */
export function runAfterAnswer(what: string, task: () => Promise<void>): void {
  const run = () => task().catch((error: unknown) => log.error({ what, err: error instanceof Error ? error.message : String(error) }, "background work failed"));
  try {
    after(run);
  } catch {
    void run(); // no request to wait for
  }
}
