// Dwork et al.'s no-signal experiment and Blum & Hardt's boosting attack (docs/experiments.md),
// each against three leaderboards side by side: plain, Thresholdout as if rows were independent, and
// BDP-calibrated Thresholdout.
import { randomBytes, randomUUID } from "node:crypto";
import seedrandom from "seedrandom";
import { boostingAttack, type LeaderboardOracle } from "@/lib/experiments/boosting";
import { signAccuracy, randomLabels } from "@/lib/experiments/data";
import { noSignalExperiment } from "@/lib/experiments/no-signal";
import { linePlotSvg, type Series } from "@/lib/experiments/svg";
import { client, newApiUser, newCompetitor, publishOverApi } from "../support/rest-client";
import { COLORS, type ExperimentReport, f } from "./common";

export type ExperimentOptions = { n: number; d: number; ks: number[]; submissions: number; stay: number; epsBdp: number; sigma: number; threshold: number; seed: string };

export const DEFAULTS: ExperimentOptions = {
  n: 10_000,
  d: 10_000,
  ks: [10, 50, 100, 200, 300, 400, 500],
  submissions: 400,
  stay: 0.9,
  epsBdp: 10,
  sigma: 0.0025,
  threshold: 0.04,
  seed: "quiltboard",
};

type Variant = { key: "plain" | "independent" | "bdp"; label: string; color: string; budget: number | null; leaderboard: LeaderboardOracle };
/**
 * One leaderboard per mechanism variant on a fresh competition: the organizer uploads a solution of
 * `rows` rows (first half public, second half holdout) with the given labels, sets the correlation
 * model and a practical mechanism (σ, T) whose budget is calibrated to the same ε_BDP target: as if
 * rows were independent, or under the Markov model (Zhao 2017's BDP calibration via the calibrate
 * API). The plain leaderboard is the exact holdout accuracy, what other platforms show.
 */
async function leaderboards(base: string, labels: Int8Array, options: ExperimentOptions, correlated: boolean): Promise<Variant[]> {
  const rows = labels.length;
  const holdout = rows / 2;
  const organizer = await newApiUser(base, "organizer");
  const anyone = client(base);
  const markov = {
    kind: "markov",
    transition: [
      [options.stay, 1 - options.stay],
      [1 - options.stay, options.stay],
    ],
  };
  const perAnswer = (
    await anyone("/api/v1/calibrate", {
      json: { n: holdout, model: { kind: "independent" }, mechanism: { mode: "practical", sigma: options.sigma, threshold: options.threshold, budget: 1 } },
    })
  ).epsDp as number;
  const epsDpFor = async (model: object) => (await anyone("/api/v1/calibrate", { json: { n: holdout, model, epsBdp: options.epsBdp } })).epsDp as number;
  const holdoutRows = Uint32Array.from({ length: holdout }, (_, i) => holdout + i);
  // The group column keeps the public rows and the holdout rows in separate chains (a split must not cut a chain).
  const solution = [
    "id,label,split,order,group",
    ...Array.from(labels, (y, i) => `r${i},${y},${i < holdout ? "public" : "holdout"},${i},${i < holdout ? "public" : "holdout"}`),
  ].join("\n");

  const make = async (key: "independent" | "bdp", label: string, model: object): Promise<Variant> => {
    const budget = Math.max(1, Math.floor((await epsDpFor(model)) / perAnswer));
    const { slug } = await publishOverApi(base, {
      organizer,
      // Every variable is checked once, then each k: the daily cap and m hold them all.
      settings: { slug: `exp-${key}-${randomBytes(4).toString("hex")}`, title: label, dailySubmissionLimit: Math.max(1000, options.d + options.ks.length + options.submissions) },
      solution,
      correlation: model as Record<string, unknown>,
      mechanism: { mode: "practical", sigma: options.sigma, threshold: options.threshold, budget },
    });
    const analyst = (await newCompetitor(base, slug, "Analyst")).call;
    const leaderboard: LeaderboardOracle = async (predictions) => {
      const csv = ["id,prediction", ...Array.from(predictions, (p, i) => `r${i},${p}`)].join("\n");
      const answer = await analyst(`/api/v1/competitions/${slug}/submissions`, { csv, headers: { "idempotency-key": randomUUID() } });
      return answer.answer.score; // null for ⊥ (budget spent, limit reached)
    };
    return { key, label: `${label} (B = ${budget})`, color: COLORS[key], budget, leaderboard };
  };

  return [
    { key: "plain", label: "Plain holdout (exact scores)", color: COLORS.plain, budget: null, leaderboard: async (p) => signAccuracy(p, labels, holdoutRows) },
    await make("independent", "Thresholdout, calibrated as if independent", { kind: "independent" }),
    await make("bdp", correlated ? "Thresholdout, BDP-calibrated (Markov)" : "Thresholdout, BDP-calibrated", correlated ? markov : { kind: "independent" }),
  ];
}

export async function runNoSignal(base: string, options: ExperimentOptions, correlated: boolean, name: string): Promise<ExperimentReport> {
  const labels = randomLabels(2 * options.n, seedrandom(`${options.seed}:labels`), correlated ? options.stay : undefined);
  const variants = await leaderboards(base, labels, options, correlated);
  const results: { v: Variant; rows: Awaited<ReturnType<typeof noSignalExperiment>>["rows"] }[] = [];
  for (const v of variants) {
    const r = await noSignalExperiment({ n: options.n, d: options.d, ks: options.ks, seed: options.seed, stay: correlated ? options.stay : undefined, leaderboard: v.leaderboard });
    results.push({ v, rows: r.rows });
  }
  const csv =
    [
      "leaderboard,k,selected,training,reported,fresh",
      ...results.flatMap(({ v, rows }) => rows.map((r) => [v.key, r.k, r.selected, f(r.training), f(r.reported), f(r.fresh)].join(","))),
    ].join("\n") + "\n";
  const series: Series[] = results.map(({ v, rows }) => ({ label: v.label, color: v.color, points: rows.map((r) => ({ x: r.k, y: r.reported })) }));
  series.push({ label: "Fresh data (truth)", color: COLORS.fresh, dashed: true, points: results[0].rows.map((r) => ({ x: r.k, y: r.fresh })) });
  const svg = linePlotSvg({
    title: `No-signal data: reported vs fresh accuracy (n = d = ${options.n === options.d ? options.n : `${options.n}, d = ${options.d}`}${correlated ? `, Markov labels p = ${options.stay}` : ""})`,
    xLabel: "variables selected k",
    yLabel: "accuracy",
    series,
    yRange: [0.4, 0.75],
  });
  const last = (key: string) => results.find((r) => r.v.key === key)!.rows.at(-1)!;
  const summary = [
    `k = ${options.ks.at(-1)}: fresh accuracy ${f(last("plain").fresh)} (no classifier beats 0.5 on new data)`,
    ...results.map(({ v }) => `  ${v.label.padEnd(58)} reports ${f(last(v.key).reported) || "⊥ (budget spent)"}`),
  ];
  return { name, csv, svgs: [{ file: `${name}.svg`, svg }], summary, budgets: Object.fromEntries(variants.map((v) => [v.key, v.budget])) };
}

export async function runBoosting(base: string, options: ExperimentOptions, correlated: boolean, name: string): Promise<ExperimentReport> {
  const rows = 2 * options.n;
  const labels = randomLabels(rows, seedrandom(`${options.seed}:boost-labels`), correlated ? options.stay : undefined);
  const fresh = randomLabels(rows, seedrandom(`${options.seed}:boost-fresh`), correlated ? options.stay : undefined);
  const variants = await leaderboards(base, labels, options, correlated);
  const checkpoints = new Set(Array.from({ length: 8 }, (_, i) => Math.round(((i + 1) * options.submissions) / 8)));
  const csvRows: string[] = ["leaderboard,submissions,reported,fresh"];
  const series: Series[] = [];
  const summary: string[] = [];
  for (const v of variants) {
    // Re-run the attack prefix by prefix: the majority of the probes kept after s submissions.
    const rng = seedrandom(`${options.seed}:probes`);
    const probes: Int8Array[] = [];
    const kept: boolean[] = [];
    const points: { x: number; y: number | null }[] = [];
    let last = { reported: null as number | null, fresh: 0.5 };
    const result = await boostingAttack({
      rows,
      submissions: options.submissions,
      rng,
      leaderboard: async (p) => {
        const answer = await v.leaderboard(p);
        if (probes.length < options.submissions) {
          probes.push(p);
          kept.push(answer !== null && answer > 0.5);
        }
        return answer;
      },
    });
    for (const s of checkpoints) {
      const votes = new Int32Array(rows);
      probes.slice(0, s).forEach((p, i) => kept[i] && p.forEach((x, r) => (votes[r] += x)));
      const vote = Int8Array.from(votes, (x) => (x >= 0 ? 1 : -1));
      const reported = s === options.submissions ? result.reported : await v.leaderboard(vote);
      last = { reported, fresh: signAccuracy(vote, fresh) };
      points.push({ x: s, y: reported });
      csvRows.push([v.key, s, f(reported), f(last.fresh)].join(","));
    }
    series.push({ label: v.label, color: v.color, points });
    summary.push(`  ${v.label.padEnd(58)} reports ${f(last.reported) || "⊥ (budget spent)"} for the majority vote; fresh ${f(last.fresh)}`);
  }
  series.push({ label: "Fresh labels (truth)", color: COLORS.fresh, dashed: true, points: [...checkpoints].map((s) => ({ x: s, y: 0.5 })) });
  const svg = linePlotSvg({
    title: `Boosting attack: reported accuracy of the majority vote (${options.n} holdout rows${correlated ? `, Markov p = ${options.stay}` : ""})`,
    xLabel: "random submissions",
    yLabel: "accuracy",
    series,
    yRange: [0.4, 0.75],
  });
  return {
    name,
    csv: csvRows.join("\n") + "\n",
    svgs: [{ file: `${name}.svg`, svg }],
    summary: [`after ${options.submissions} submissions (truth: 0.5)`, ...summary],
    budgets: Object.fromEntries(variants.map((v) => [v.key, v.budget])),
  };
}
