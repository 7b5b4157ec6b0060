import "server-only";
import { db } from "./db";
import { log } from "./log";

/**
 * Work the scheduler (closing/scheduler.ts) does once per period across every app instance, however
 * many there are: the file store's sweep of files no row names (scoring/files.ts storeSweep), which
 * lists every object under its prefixes and is the same work on each instance. Each job has a mark in
 * PostgreSQL, `periodic_runs.last_run_at`, the start of its last run. At every tick each instance asks
 * to take the job's period; the one statement that answers (an INSERT of the mark that, on conflict,
 * moves it forward only when it is a period or more old) is atomic, so of any number of instances
 * asking at once exactly one takes it, and the others see the moved mark. A run that fails is logged
 * and tried again a period later. `now` is the asking instance's clock: a skew of seconds or minutes
 * between instances moves a period's start by as much, never makes two runs of one period.
 */
export type PeriodicJob = { name: string; periodMs: number; run: (now: Date) => Promise<unknown> };

/** Takes `job`'s period for this instance when its last run began `job.periodMs` or more before `now`. Whether it did. */
export async function takePeriod(job: Pick<PeriodicJob, "name" | "periodMs">, now = new Date()): Promise<boolean> {
  const taken = await db.$executeRaw`
    INSERT INTO periodic_runs (name, last_run_at) VALUES (${job.name}, ${now})
    ON CONFLICT (name) DO UPDATE SET last_run_at = EXCLUDED.last_run_at
    WHERE periodic_runs.last_run_at <= ${new Date(now.getTime() - job.periodMs)}`;
  return taken === 1;
}

/** Runs each of `jobs` whose period this instance takes at `now`, one after another; a failure is logged. The names of those it ran. */
export async function runDueJobs(jobs: PeriodicJob[], now = new Date()): Promise<string[]> {
  const ran: string[] = [];
  for (const job of jobs) {
    try {
      if (!(await takePeriod(job, now))) continue;
      ran.push(job.name);
      await job.run(now);
    } catch (error) {
      log.error({ job: job.name, err: (error as Error).message }, `a periodic job failed; it is tried again in ${job.periodMs / 3_600_000} hours`);
    }
  }
  return ran;
}
