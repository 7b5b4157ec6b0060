// The winner's curse and the cheater's bound on the public-first board (docs/experiments.md
// experiment 4; docs/mechanism.md §2.6).
import { randomUUID } from "node:crypto";
import seedrandom from "seedrandom";
import { randomLabels, signAccuracy } from "@/lib/experiments/data";
import { linePlotSvg, type Series } from "@/lib/experiments/svg";
import { client, newCompetitor, wholeLeaderboard } from "../support/rest-client";
import { COLORS, type ExperimentReport, f, inParallel, mean, predictionsCsv, publishCompetition, solutionCsv } from "./common";

export type CurseOptions = { teams: number; rows: number; budget: number; submissions: number; settings: "recommended" | "dwork"; seed: string };

/** 24 cheating teams on 2,000 + 2,000 rows, B₀ = 20, 40 submissions each, at the recommended σ and T. */
export const CURSE_DEFAULTS: CurseOptions = { teams: 24, rows: 4000, budget: 20, submissions: 40, settings: "recommended", seed: "quiltboard" };

/**
 * Cheaters (docs/mechanism.md §2.6): teams whose every submission is worth exactly 0.5 on new data —
 * random predictions for the holdout rows — and which copy a growing share of the public labels
 * (from 0 to 40 % over their submissions), so that their public scores climb while their holdout
 * scores do not. Each submits until its budget is spent or its submissions are done. Three boards:
 *   - the best released answer of each team (what a board of best answers shows: each team sees its
 *     own answers, so the client computes it): the maximum of noisy holdout answers and of public
 *     scores that passed the check;
 *   - Quiltboard's public-first board, from GET …/leaderboard;
 *   - a plain board of the best exact holdout score (other platforms), computed from the labels.
 * Thresholdout's promise is that a shown public score is at most about T (+ the threshold's noise)
 * above the holdout, so the cheaters' shown scores sit at most about T above the truth 0.5.
 * `settings`: the planner's recommended σ and T for this holdout, or Dwork et al.'s σ = 0.01, T = 0.04.
 */
export async function runWinnersCurse(base: string, options: CurseOptions): Promise<ExperimentReport> {
  const { rows, teams, budget } = options;
  const labels = randomLabels(rows, seedrandom(`${options.seed}:curse-labels`));
  const isPublic = (i: number) => i % 2 === 1;
  const holdoutRows = Uint32Array.from({ length: rows / 2 }, (_, k) => 2 * k);
  const mechanism = { budget, maxQueries: options.submissions };
  const { slug, noise } = await publishCompetition(base, {
    title: "Winner's curse",
    solution: solutionCsv(labels, (i) => (isPublic(i) ? "public" : "holdout")),
    ...(options.settings === "dwork" ? { mechanism: { mode: "practical", sigma: 0.01, threshold: 0.04, ...mechanism } } : { recommended: mechanism }),
    daily: 1000,
  });
  const names = Array.from({ length: teams }, (_, t) => `Cheater ${String(t + 1).padStart(2, "0")}`);
  const best = new Array<number>(teams).fill(-Infinity);
  const exact = new Array<number>(teams).fill(-Infinity);
  const submissions = new Array<number>(teams).fill(0);
  await inParallel(names, 4, async (name, t) => {
    const analyst = (await newCompetitor(base, slug, name)).call;
    const rng = seedrandom(`${options.seed}:curse-team-${t}`);
    for (let j = 0; j < options.submissions; j++) {
      const copied = (0.4 * j) / (options.submissions - 1);
      const predictions = Int8Array.from(labels, (y, i) => (isPublic(i) && rng() < copied ? y : rng() < 0.5 ? 1 : -1));
      const answer = await analyst(`/api/v1/competitions/${slug}/submissions`, { csv: predictionsCsv(predictions), headers: { "idempotency-key": randomUUID() } });
      submissions[t]++;
      exact[t] = Math.max(exact[t], signAccuracy(predictions, labels, holdoutRows));
      if (answer.answer.score !== null) best[t] = Math.max(best[t], answer.answer.score);
      if (answer.budget.remaining === 0) break;
    }
  });
  const board = await wholeLeaderboard(client(base), slug);
  const entry = new Map(board.entries.map((e) => [e.team, e]));
  const shown = names.map((n) => entry.get(n)!.score!); // every cheater has an answer on the board
  const top = board.entries[0];
  const csv =
    [
      "team,submissions,best_answer,shown,shown_kind,exact_best,truth",
      ...names.map((n, i) => [n, submissions[i], f(best[i]), f(shown[i]), entry.get(n)!.kind, f(exact[i]), "0.5"].join(",")),
    ].join("\n") + "\n";
  const order = names.map((_, i) => i).sort((a, b) => best[b] - best[a]);
  const series: Series[] = [
    { label: "Best released answer", color: COLORS.plain, points: order.map((i, k) => ({ x: k + 1, y: best[i] })) },
    { label: "Plain board: best exact holdout score", color: COLORS.independent, points: order.map((i, k) => ({ x: k + 1, y: exact[i] })) },
    { label: "Shown: public first", color: COLORS.bdp, points: order.map((i, k) => ({ x: k + 1, y: shown[i] })) },
    {
      label: `Truth + T (${f(noise.threshold)})`,
      color: COLORS.fresh,
      dashed: true,
      points: [
        { x: 1, y: 0.5 + noise.threshold },
        { x: teams, y: 0.5 + noise.threshold },
      ],
    },
  ];
  const svg = linePlotSvg({
    title: `Cheaters on the public-first board: ${teams} teams of true accuracy 0.5 copying public labels (σ = ${f(noise.sigma)}, T = ${f(noise.threshold)}, B₀ = ${budget})`,
    xLabel: "teams, by best released answer",
    yLabel: "accuracy",
    series,
    yRange: [0.4, 0.8],
  });
  const summary = [
    `${teams} cheating teams, ${mean(submissions).toFixed(1)} submissions each (σ = ${f(noise.sigma)}, T = ${f(noise.threshold)}, B₀ = ${budget}); truth 0.5 on new data`,
    `  mean shown − truth (public first):       ${(mean(shown) - 0.5).toFixed(4)}; largest ${(Math.max(...shown) - 0.5).toFixed(4)} (T = ${f(noise.threshold)})`,
    `  mean best released answer − truth:       ${(mean(best) - 0.5).toFixed(4)}; largest ${(Math.max(...best) - 0.5).toFixed(4)}`,
    `  mean best exact holdout − truth (plain): ${(mean(exact) - 0.5).toFixed(4)}; largest ${(Math.max(...exact) - 0.5).toFixed(4)}`,
    `  top of the board: ${top.team}, ${f(top.score)} (${top.kind}, ± ${f(top.uncertainty)})`,
  ];
  return {
    name: options.settings === "dwork" ? "winners-curse-dwork" : "winners-curse",
    csv,
    svgs: [{ file: `${options.settings === "dwork" ? "winners-curse-dwork" : "winners-curse"}.svg`, svg }],
    summary,
    budgets: { bdp: budget },
  };
}
