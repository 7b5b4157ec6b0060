import "server-only";
import { timingSafeEqual } from "node:crypto";
import client from "prom-client";
import { poolStats } from "./db";
import { env } from "./env";
import { AppError } from "./errors";

// Prometheus metrics (GET /api/metrics). One registry per process: prom-client's default one, which
// the app process's HTTP preload (server/http-preload.mjs) also fills with the request durations
// and Node's process metrics; prom-client is a server-external package (next.config.js), so the
// preload and this module share it. Each metric is registered once, whichever module loads first.

function once<T extends client.Metric>(name: string, make: () => T): T {
  return (client.register.getSingleMetric(name) as T | undefined) ?? make();
}

/** Answers given, by kind (public, holdout, exhausted, limit, capped, late: lib/responses.ts resultKindSchema). */
export const submissionsTotal = once(
  "quiltboard_submissions_total",
  () => new client.Counter({ name: "quiltboard_submissions_total", help: "Submissions answered, by answer kind", labelNames: ["kind"] }),
);

/** Reading, validating and scoring a submission through the mechanism, up to its commit. */
export const scoringSeconds = once(
  "quiltboard_scoring_duration_seconds",
  () =>
    new client.Histogram({
      name: "quiltboard_scoring_duration_seconds",
      help: "Time to read, validate, score and record a submission",
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    }),
);

once(
  "quiltboard_db_pool_connections",
  () =>
    new client.Gauge({
      name: "quiltboard_db_pool_connections",
      help: "PostgreSQL pool connections of this process: total, idle, and requests waiting for one",
      labelNames: ["state"],
      collect() {
        const stats = poolStats();
        for (const [state, value] of Object.entries(stats)) this.set({ state }, value);
      },
    }),
);

/** A gauge read from `value` at each scrape (a module's own state, e.g. a cache's size), registered once. */
export function gauge(name: string, help: string, value: () => number): void {
  once(
    name,
    () =>
      new client.Gauge({
        name,
        help,
        collect() {
          this.set(value());
        },
      }),
  );
}

/**
 * The metrics in Prometheus' text format, for `Authorization: Bearer $METRICS_TOKEN`. Without
 * METRICS_TOKEN the endpoint is off (404): metrics tell outsiders how busy a competition is.
 */
export async function metricsFor(authorization: string | null): Promise<{ body: string; contentType: string }> {
  const token = env().METRICS_TOKEN;
  if (!token) throw new AppError("not_found", "metrics are off: set METRICS_TOKEN to turn them on");
  const given = Buffer.from(authorization?.replace(/^Bearer\s+/i, "") ?? "");
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError("unauthorized", "send Authorization: Bearer <METRICS_TOKEN>");
  return { body: await client.register.metrics(), contentType: client.register.contentType };
}
