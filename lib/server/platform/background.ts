import "server-only";
import { log } from "./log";

/**
 * Starts `task` once the current request's own work is done, and does not wait for it: for work
 * whose duration must not show in the answer's time (a password reset's lookup and mail would tell
 * which addresses have accounts). A failure is logged with `what` (never the task's data); the
 * process runs the task while it serves other requests.
 */
export function runAfterAnswer(what: string, task: () => Promise<void>): void {
  setImmediate(() => void task().catch((error: unknown) => log.error({ what, err: error instanceof Error ? error.message : String(error) }, "background work failed")));
}
