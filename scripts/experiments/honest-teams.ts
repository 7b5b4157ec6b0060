// What the board is worth to honest teams (README, "Does it work?" experiment 6; docs/mechanism.md §2.6).
import { randomUUID } from "node:crypto";
import seedrandom from "seedrandom";
import { kendallTau, predictionsWithAccuracy, randomLabels, signAccuracy } from "@/lib/experiments/data";
import { linePlotSvg } from "@/lib/experiments/svg";
import { client, newCompetitor, wholeLeaderboard } from "../../test/support/api";
import { COLORS, type ExperimentReport, f, inParallel, mean, predictionsCsv, publishCompetition, recommendedSettings, solutionCsv } from "./common";

export type HonestOptions = { teams: number; n: number; submissions: number; budget: number; low: number; high: number; settings: "recommended" | "dwork"; seed: string };

/** 100 honest teams of true accuracy 0.70 … 0.73 on 10⁴ public and 10⁴ holdout rows, 300 submissions each (60 days × 5), B₀ = 20. */
export const HONEST_DEFAULTS: HonestOptions = { teams: 100, n: 10_000, submissions: 300, budget: 20, low: 0.7, high: 0.73, settings: "recommended", seed: "quiltboard" };

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
  const labels = randomLabels(2 * n, seedrandom(`${options.seed}:honest-labels`));
  const isPublic = (i: number) => i % 2 === 1;
  const holdoutRows = Uint32Array.from({ length: n }, (_, k) => 2 * k);
  const noise = options.settings === "dwork" ? { sigma: 0.01, threshold: 0.04 } : await recommendedSettings(base, { n, publicRows: n, maxQueries: options.submissions });
  const { slug, organizer } = await publishCompetition(base, {
    title: "Honest teams",
    solution: solutionCsv(labels, (i) => (isPublic(i) ? "public" : "holdout")),
    model: { kind: "independent" },
    mechanism: { mode: "practical", ...noise, budget, maxQueries: options.submissions },
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
      const accuracy = quality[t] - 0.015 * rng() * (1 - j / Math.max(1, options.submissions - 1));
      const predictions = predictionsWithAccuracy(labels, accuracy, rng);
      const answer = await analyst(`/api/v1/competitions/${slug}/submissions`, { csv: predictionsCsv(predictions), headers: { "idempotency-key": randomUUID() } });
      exactBest[t] = Math.max(exactBest[t], signAccuracy(predictions, labels, holdoutRows));
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
  const name = options.settings === "dwork" ? "honest-teams-dwork" : "honest-teams";
  const summary = [
    `${teams} honest teams of true accuracy ${options.low} … ${options.high}, ${options.submissions} submissions each, ${n} public + ${n} holdout rows (σ = ${f(noise.sigma)}, T = ${f(noise.threshold)}, B₀ = ${budget})`,
    `  Kendall τ against the truth: live board ${tau.live.toFixed(3)}, exact board ${tau.exact.toFixed(3)} (live / exact = ${(tau.live / tau.exact).toFixed(3)}), final standings ${tau.final.toFixed(3)}`,
    `  top-10 overlap with the truth: live ${topTen(liveOrder)}, exact ${topTen(exactBest)}, final ${topTen(finalOrder)}`,
    `  charges per honest team: mean ${mean(charges).toFixed(3)}, most ${Math.max(...charges)}; teams out of budget: ${charges.filter((c) => c >= budget).length}; answers not checked: ${((mean(unchecked) / options.submissions) * 100).toFixed(2)} %`,
    `  top team on the live board: ${top.team}, shown ${f(top.score!)} (${top.kind}), true ${topTruth.toFixed(4)}: bias ${(top.score! - topTruth).toFixed(4)}`,
  ];
  return { name, csv, svgs: [{ file: `${name}.svg`, svg }], summary, budgets: { bdp: budget } };
}
