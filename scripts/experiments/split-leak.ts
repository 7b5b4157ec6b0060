// Splits that cut correlated rows (docs/experiments.md experiment 5).
import { randomUUID } from "node:crypto";
import seedrandom from "seedrandom";
import { signAccuracy, randomLabels } from "@/lib/experiments/data";
import { newCompetitor } from "../support/rest-client";
import { type ExperimentReport, f, publishCompetition } from "./common";

export type LeakOptions = { households: number; hours: number; stay: number; seed: string };
export const LEAK_DEFAULTS: LeakOptions = { households: 200, hours: 24, stay: 0.9, seed: "quiltboard" };

/**
 * Splits that cut correlated rows (docs/mechanism.md §2.6): households of hourly ±1 labels that
 * follow a sticky chain. The analyst knows the public rows' labels (the worst case of what exact
 * public scores reveal) and predicts every row by its nearest other public row in the same
 * household, a coin flip where there is none; on new households it can only guess (truth 0.5).
 * A split that cuts households (accepted under the independent model) lets the public neighbours
 * predict holdout rows: the leaderboard reports the leak and no budget is spent. A split by
 * household (the groups model) leaves the holdout untouched: the gap shows and the holdout answers.
 */
export async function runSplitLeak(base: string, options: LeakOptions): Promise<ExperimentReport> {
  const { households, hours } = options;
  const labels = randomLabels(households * hours, seedrandom(`${options.seed}:leak-labels`), options.stay);
  // Restart the chain at each household so households are independent.
  const restart = seedrandom(`${options.seed}:leak-starts`);
  for (let h = 0; h < households; h++) if (restart() < 0.5) for (let t = 0; t < hours; t++) labels[h * hours + t] *= -1;
  const splitRng = seedrandom(`${options.seed}:leak-split`);
  const cutSplit = Array.from({ length: households * hours }, () => (splitRng() < 0.5 ? 1 : 0));
  const groupSplit = Array.from({ length: households * hours }, (_, i) => Math.floor(i / hours) % 2);
  const results: { key: string; label: string; kind: string; reported: number | null; holdoutAccuracy: number; budget: number }[] = [];
  for (const [key, label, split, model] of [
    ["cut", "Rows split at random (independent model)", cutSplit, { kind: "independent" }],
    ["group", "Households split whole (groups model)", groupSplit, { kind: "groups" }],
  ] as const) {
    const solution = ["id,label,split,order,group", ...Array.from(labels, (y, i) => `r${i},${y},${split[i] ? "holdout" : "public"},${i % hours},h${Math.floor(i / hours)}`)].join(
      "\n",
    );
    const { slug } = await publishCompetition(base, { title: label, solution, model, mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, budget: 20 }, daily: 100 });
    const guess = seedrandom(`${options.seed}:leak-guess`);
    const predictions = Array.from(labels, (_, i) => {
      const h = Math.floor(i / hours);
      for (let d = 1; d < hours; d++) for (const j of [i - d, i + d]) if (j >= h * hours && j < (h + 1) * hours && !split[j]) return labels[j];
      return guess() < 0.5 ? 1 : -1;
    });
    const analyst = (await newCompetitor(base, slug, "Neighbours")).call;
    const answer = await analyst(`/api/v1/competitions/${slug}/submissions`, {
      csv: ["id,prediction", ...predictions.map((p, i) => `r${i},${p}`)].join("\n"),
      headers: { "idempotency-key": randomUUID() },
    });
    const holdoutRows = Uint32Array.from(split.flatMap((s, i) => (s ? [i] : [])));
    results.push({
      key,
      label,
      kind: answer.answer.kind,
      reported: answer.answer.score,
      holdoutAccuracy: signAccuracy(Int8Array.from(predictions), labels, holdoutRows),
      budget: answer.budget.remaining,
    });
  }
  const csv =
    [
      "split,answer_kind,reported,holdout_accuracy,budget_remaining,truth",
      ...results.map((r) => [r.key, r.kind, f(r.reported), f(r.holdoutAccuracy), r.budget, "0.5"].join(",")),
    ].join("\n") + "\n";
  const summary = [
    `${households} households × ${hours} hours, labels a sticky chain (P[stay] = ${options.stay}); predictions from public neighbours; truth on new households 0.5`,
    ...results.map((r) => `  ${r.label.padEnd(44)} ${r.kind} answer ${f(r.reported)} (holdout accuracy ${f(r.holdoutAccuracy)}), budget left ${r.budget}`),
  ];
  return { name: "split-leak", csv, svgs: [], summary, budgets: {} };
}
