// What the experiments share: their report, the plot colours, a published competition through the
// REST API, and number formatting. The experiments play the analyst through the API exactly as an
// outside client would.
import { randomBytes } from "node:crypto";
import { client, publishOverApi } from "../support/rest-client";

export type ExperimentReport = { name: string; csv: string; svgs: { file: string; svg: string }[]; summary: string[]; budgets: Record<string, number | null> };

export const COLORS = { plain: "#dc2626", independent: "#d97706", bdp: "#4f46e5", fresh: "#059669" };

/** A value with 4 decimals for the CSVs ("" for none). */
export const f = (x: number | null) => (x === null ? "" : x.toFixed(4));

export const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

/**
 * A published competition through the REST API, as an organizer publishes one: the solution, the
 * correlation model, and either the mechanism given or, with `recommended`, B₀ and m with the σ and
 * T the planner recommends for honest teams on this solution (the manage page's "use recommended").
 * Returns the slug, the organizer and the σ and T it runs with.
 */
export async function publishCompetition(
  base: string,
  options: {
    title: string;
    solution: string;
    metric?: string;
    model?: Record<string, unknown>;
    mechanism?: Record<string, unknown>;
    recommended?: { budget: number; maxQueries: number };
    daily: number;
  },
) {
  const settings = { slug: `exp-${randomBytes(4).toString("hex")}`, title: options.title, metric: { name: options.metric ?? "accuracy" }, dailySubmissionLimit: options.daily };
  const { slug, organizer } = await publishOverApi(base, { ...options, settings, correlation: options.model });
  const { mechanism } = await client(base)(`/api/v1/competitions/${slug}`);
  return { slug, organizer, noise: { sigma: mechanism.sigma as number, threshold: mechanism.threshold as number } };
}

/** Runs `work` for every item with at most `concurrency` at once (teams play side by side, as on a real board). */
export async function inParallel<T>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

/** The ±1 solution of an experiment: rows r0…, the given splits. */
export function solutionCsv(labels: Int8Array, split: (i: number) => "public" | "holdout"): string {
  return ["id,label,split", ...Array.from(labels, (y, i) => `r${i},${y},${split(i)}`)].join("\n");
}

/** A ±1 predictions file for rows r0…. */
export function predictionsCsv(predictions: Int8Array): string {
  return ["id,prediction", ...Array.from(predictions, (p, i) => `r${i},${p}`)].join("\n");
}
