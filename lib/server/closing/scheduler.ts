import "server-only";
import { closeDueCompetitions } from "./finals";
import { remindDueCompetitions } from "@/lib/server/competitions/announcements";
import { sweepExpiredUploads } from "@/lib/server/competitions/attachment-uploads";
import { env } from "@/lib/server/platform/env";
import { log } from "@/lib/server/platform/log";
import { drainOutbox } from "@/lib/server/platform/outbox";
import { type PeriodicJob, runDueJobs } from "@/lib/server/platform/periodic";

/**
 * Closes competitions at their end and sends the mail that is due: every app instance checks every
 * QUILTBOARD_CLOSE_SECONDS (default 30), so a competition closes within that long after `endsAt`;
 * closing locks the competition's row and re-checks that it is still published, so however many
 * instances run, each competition is closed (and its teams told) exactly once. A day before its
 * deadline each open competition's participants are reminded, once per deadline (however many
 * instances: competitions/announcements.ts). Then the outbox's due
 * mail is sent (lib/server/platform/outbox.ts: retries after an SMTP outage; each row is claimed by
 * one instance). Resumable uploads abandoned past their expiry lose their parts and their row
 * (competitions/attachment-uploads.ts). Started by instrumentation.ts, which passes the `periodic`
 * jobs done once per period across every instance (platform/periodic.ts: the file store's sweep, which
 * lives in a domain this one may not import); they are checked at each tick too, apart from the
 * rest, so that a long sweep never holds up a close.
 */
export function startScheduler(periodic: PeriodicJob[] = []): void {
  const seconds = env().QUILTBOARD_CLOSE_SECONDS;
  let running = false;
  let runningPeriodic = false;
  const tickPeriodic = async () => {
    if (runningPeriodic || !periodic.length) return;
    runningPeriodic = true;
    try {
      for (const name of await runDueJobs(periodic)) log.info({ job: name }, "ran a periodic job");
    } finally {
      runningPeriodic = false;
    }
  };
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const closed = await closeDueCompetitions();
      for (const slug of closed) log.info({ competition: slug }, "closed at its end; the final standings are out");
    } catch (error) {
      log.error({ err: (error as Error).message }, "closing due competitions failed");
    }
    try {
      for (const slug of await remindDueCompetitions()) log.info({ competition: slug }, "reminded its participants of the deadline");
    } catch (error) {
      log.error({ err: (error as Error).message }, "reminding of due deadlines failed");
    }
    try {
      const removed = await sweepExpiredUploads();
      if (removed) log.info({ removed }, "removed abandoned uploads and their parts");
    } catch (error) {
      log.error({ err: (error as Error).message }, "removing abandoned uploads failed");
    }
    try {
      const sent = await drainOutbox();
      if (sent) log.info({ sent }, "sent mail that was due from the outbox");
    } catch (error) {
      log.error({ err: (error as Error).message }, "sending the outbox's due mail failed");
    } finally {
      running = false;
    }
  };
  setInterval(() => void (tick(), tickPeriodic()), seconds * 1000).unref();
  void tick();
  void tickPeriodic();
}
