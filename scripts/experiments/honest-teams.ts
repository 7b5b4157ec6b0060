// What the board is worth to honest teams (docs/experiments.md experiment 6; docs/mechanism.md §2.6).
import { randomUUID } from "node:crypto";
import seedrandom from "seedrandom";
import { kendallTau, predictionsWithAccuracy, predictionsWithAuc, randomLabels, signAccuracy } from "@/lib/experiments/data";
import { getMetric } from "@/lib/metrics/registry";
import { linePlotSvg } from "@/lib/experiments/svg";
import { client, newCompetitor, wholeLeaderboard } from "../support/rest-client";
import { COLORS, type ExperimentReport, f, inParallel, mean, predictionsCsv, publishCompetition, solutionCsv } from "./common";

export type HonestOptions = {
  teams: number;
  n: number;
  submissions: number;
  budget: number;
  low: number;
  high: number;
  settings: "recommended" | "dwork";
  metric: "accuracy" | "roc-auc";
  seed: string;
};

/** 100 honest teams of true accuracy 0.70 … 0.73 on 10⁴ public and 10⁴ holdout rows, 300 submissions each (60 days × 5), B₀ = 20. */
export const HONEST_DEFAULTS: HonestOptions = {
  teams: 100,
  n: 10_000,
  submissions: 300,
  budget: 20,
  low: 0.7,
  high: 0.73,
  settings: "recommended",
  metric: "accuracy",
  seed: "quiltboard",
};

/** With --metric roc-auc: true AUCs 0.80 … 0.83 on labels with 20 % positives. */
export const HONEST_AUC = { low: 0.8, high: 0.83, positives: 0.2 };

/** A task the honest teams work on: the solution, and a model of a given true quality with its exact holdout score. */
type Task = { solution: string; model: (quality: number, rng: () => number) => { csv: string; holdout: number } };

/** ±1 labels, accuracy: each row right with probability q. */
function accuracyTask(n: number, seed: string, holdoutRows: Uint32Array, split: (i: number) => "public" | "holdout"): Task {
  const labels = randomLabels(2 * n, seedrandom(`${seed}:honest-labels`));
  return {
    solution: solutionCsv(labels, split),
    model: (quality, rng) => {
      const predictions = predictionsWithAccuracy(labels, quality, rng);
      return { csv: predictionsCsv(predictions), holdout: signAccuracy(predictions, labels, holdoutRows) };
    },
  };
}

/** 0/1 labels with HONEST_AUC.positives positive, ROC AUC: scores of true AUC q (data.ts predictionsWithAuc). */
function aucTask(n: number, seed: string, holdoutRows: Uint32Array, split: (i: number) => "public" | "holdout"): Task {
  const rng = seedrandom(`${seed}:honest-auc-labels`);
  const labels = Float64Array.from({ length: 2 * n }, () => (rng() < HONEST_AUC.positives ? 1 : 0));
  const auc = getMetric("roc-auc");
  return {
    solution: ["id,label,split", ...Array.from(labels, (y, i) => `r${i},${y},${split(i)}`)].join("\n"),
    model: (quality, rng) => {
      const predictions = predictionsWithAuc(labels, quality, rng);
      return {
        csv: ["id,prediction", ...Array.from(predictions, (p, i) => `r${i},${p.toFixed(6)}`)].join("\n"),
        holdout: auc.evaluate({ predictions: Float64Array.from(predictions, (p) => Number(p.toFixed(6))), labels, rows: holdoutRows }),
      };
    },
  };
}

/**
 * Honest teams (docs/mechanism.md §2.6): team t's final model has true accuracy q_t, spread evenly
 * over [low, high]; its j-th submission is a model of accuracy q_t − 0.015·u·(1 − j/m) (u uniform:
 * early models are weaker, none is tuned to the holdout), whose predictions are right on each row
 * independently. No team adapts to the holdout, so each shown score is an honest estimate, and the
 * question is how well each board orders the teams by their true quality at the close (Kendall's τ
 * against q) and what the mechanism charges them:
 *   - the live board (GET …/leaderboard, public first) just before the close;
 *   - a plain board of each team's best exact holdout score (what other platforms show),
 *     computed from the labels;
 *   - the final standings (GET …/final after the close: exact holdout scores of the default final
 *     submissions, the ones the live board shows).
 * `settings`: the planner's recommended σ and T for this holdout (σ = T/32, < 0.1 expected charges),
 * or Dwork et al.'s σ = 0.01, T = 0.04 (the old demo's).
 */
export async function runHonestTeams(base: string, options: HonestOptions): Promise<ExperimentReport> {
  const { n, teams, budget } = options;
  const holdoutRows = Uint32Array.from({ length: n }, (_, k) => 2 * k);
  const split = (i: number) => (i % 2 === 1 ? "public" : "holdout");
  const task = (options.metric === "roc-auc" ? aucTask : accuracyTask)(n, options.seed, holdoutRows, split);
  const mechanism = { budget, maxQueries: options.submissions };
  const { slug, organizer, noise } = await publishCompetition(base, {
    title: "Honest teams",
    metric: options.metric,
    solution: task.solution,
    ...(options.settings === "dwork" ? { mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, ...mechanism } } : { recommended: mechanism }),
    daily: Math.max(1000, options.submissions),
  });
  // Quality by team, in a shuffled order of names, so that creation order says nothing about quality.
  const shuffle = seedrandom(`${options.seed}:honest-order`);
  const quality = Array.from({ length: teams }, (_, t) => options.low + ((options.high - options.low) * t) / (teams - 1)).sort(() => shuffle() - 0.5);
  const names = quality.map((_, t) => `Honest ${String(t + 1).padStart(3, "0")}`);
  const exactBest = new Array<number>(teams).fill(-Infinity);
  const charges = new Array<number>(teams).fill(0);
  const unchecked = new Array<number>(teams).fill(0);
  await inParallel(names, 8, async (name, t) => {
    const analyst = (await newCompetitor(base, slug, name)).call;
    const rng = seedrandom(`${options.seed}:honest-team-${t}`);
    for (let j = 0; j < options.submissions; j++) {
      const model = task.model(quality[t] - 0.015 * rng() * (1 - j / Math.max(1, options.submissions - 1)), rng);
      const answer = await analyst(`/api/v1/competitions/${slug}/submissions`, { csv: model.csv, headers: { "idempotency-key": randomUUID() } });
      exactBest[t] = Math.max(exactBest[t], model.holdout);
      if (answer.answer.kind === "holdout") charges[t]++;
      if (answer.answer.score === null) unchecked[t]++;
    }
  });
  const board = await wholeLeaderboard(client(base), slug);
  const live = new Map(board.entries.map((e) => [e.team, e]));
  await organizer.call(`/api/v1/competitions/${slug}/close`, { method: "POST" });
  const final = new Map<string, { rank: number; score: number }>((await client(base)(`/api/v1/competitions/${slug}/final`)).entries.map((e: { team: string }) => [e.team, e]));
  // Higher is better everywhere: rank 1 becomes the largest value.
  const liveOrder = names.map((name) => -(live.get(name)?.rank ?? teams + 1));
  const finalOrder = names.map((name) => -(final.get(name)?.rank ?? teams + 1));
  const tau = { live: kendallTau(liveOrder, quality), exact: kendallTau(exactBest, quality), final: kendallTau(finalOrder, quality) };
  const top = board.entries[0];
  const topTruth = quality[names.indexOf(top.team)];
  const topTen = (order: number[]) => {
    const best = (values: number[]) =>
      new Set(
        names
          .map((_, i) => i)
          .sort((a, b) => values[b] - values[a])
          .slice(0, 10),
      );
    const truth = best(quality);
    return [...best(order)].filter((i) => truth.has(i)).length;
  };
  const csv =
    [
      "team,truth,live_rank,live_score,live_kind,exact_best,final_rank,charges,unchecked",
      ...names.map((name, t) =>
        [
          name,
          quality[t].toFixed(4),
          live.get(name)?.rank ?? "",
          f(live.get(name)?.score ?? null),
          live.get(name)?.kind ?? "",
          f(exactBest[t]),
          final.get(name)?.rank ?? "",
          charges[t],
          unchecked[t],
        ].join(","),
      ),
    ].join("\n") + "\n";
  const byTruth = names.map((_, i) => i).sort((a, b) => quality[b] - quality[a]);
  const svg = linePlotSvg({
    title: `${teams} honest teams (σ = ${f(noise.sigma)}, T = ${f(noise.threshold)}): the rank each board gives the k-th best team; Kendall τ live ${tau.live.toFixed(2)}, exact ${tau.exact.toFixed(2)}, final ${tau.final.toFixed(2)}`,
    xLabel: "true rank",
    yLabel: "rank on the board",
    series: [
      { label: "Live board (public first)", color: COLORS.bdp, points: byTruth.map((i, k) => ({ x: k + 1, y: live.get(names[i])?.rank ?? null })) },
      { label: "Final standings", color: COLORS.independent, points: byTruth.map((i, k) => ({ x: k + 1, y: final.get(names[i])?.rank ?? null })) },
      {
        label: "Truth",
        color: COLORS.fresh,
        dashed: true,
        points: [
          { x: 1, y: 1 },
          { x: teams, y: teams },
        ],
      },
    ],
    yRange: [1, teams],
  });
  const name = `honest-teams${options.metric === "roc-auc" ? "-auc" : ""}${options.settings === "dwork" ? "-dwork" : ""}`;
  const measure = options.metric === "roc-auc" ? `ROC AUC (${HONEST_AUC.positives * 100} % positives)` : "accuracy";
  const summary = [
    `${teams} honest teams of true ${measure} ${options.low} … ${options.high}, ${options.submissions} submissions each, ${n} public + ${n} holdout rows (σ = ${f(noise.sigma)}, T = ${f(noise.threshold)}, B₀ = ${budget})`,
    `  Kendall τ against the truth: live board ${tau.live.toFixed(3)}, exact board ${tau.exact.toFixed(3)} (live / exact = ${(tau.live / tau.exact).toFixed(3)}), final standings ${tau.final.toFixed(3)}`,
    `  top-10 overlap with the truth: live ${topTen(liveOrder)}, exact ${topTen(exactBest)}, final ${topTen(finalOrder)}`,
    `  charges per honest team: mean ${mean(charges).toFixed(3)}, most ${Math.max(...charges)}; teams out of budget: ${charges.filter((c) => c >= budget).length}; answers not checked: ${((mean(unchecked) / options.submissions) * 100).toFixed(2)} %`,
    `  top team on the live board: ${top.team}, shown ${f(top.score!)} (${top.kind}), true ${topTruth.toFixed(4)}: bias ${(top.score! - topTruth).toFixed(4)}`,
  ];
  return { name, csv, svgs: [{ file: `${name}.svg`, svg }], summary, budgets: { bdp: budget } };
}
